import PasskeyStorage

extension Migrations {
    /// The audit log's hash chain (see `AuditChain`): each event's previous hash and own hash, null for the events
    /// written before (the chain starts after them, at its genesis), and the signed checkpoints of the chain.
    static let auditChain = Migration(
        version: 14,
        name: "audit hash chain",
        statements: [
            "ALTER TABLE audit_events ADD COLUMN previous_hash bytea, ADD COLUMN hash bytea",
            """
            CREATE TABLE audit_checkpoints (
                sequence bigint PRIMARY KEY,
                hash bytea NOT NULL,
                time timestamptz NOT NULL,
                public_key bytea NOT NULL,
                signature bytea NOT NULL
            )
            """,
            "CREATE INDEX audit_checkpoints_time ON audit_checkpoints (time)",
        ]
    )
}
