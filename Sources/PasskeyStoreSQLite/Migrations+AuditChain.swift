import PasskeyStorage

extension Migrations {
    /// The audit log's hash chain (see `AuditChain`): each event's previous hash and own hash, null for the events
    /// written before (the chain starts after them, at its genesis), and the signed checkpoints of the chain.
    static let auditChain = Migration(
        version: 14,
        name: "audit hash chain",
        script: """
            ALTER TABLE audit_events ADD COLUMN previous_hash BLOB;
            ALTER TABLE audit_events ADD COLUMN hash BLOB;

            CREATE TABLE audit_checkpoints (
                sequence INTEGER PRIMARY KEY NOT NULL,
                hash BLOB NOT NULL,
                time REAL NOT NULL,
                public_key BLOB NOT NULL,
                signature BLOB NOT NULL
            ) STRICT;

            CREATE INDEX audit_checkpoints_by_time ON audit_checkpoints (time);
            """
    )
}
