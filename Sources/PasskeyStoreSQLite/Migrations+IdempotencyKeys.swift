import PasskeyStorage

extension Migrations {
    /// The answers of backend requests sent with an `Idempotency-Key`, by the hash of the caller, method, path and
    /// key; `status` is null while the first request runs.
    static let idempotencyKeys = Migration(
        version: 13,
        name: "idempotency keys",
        script: """
            CREATE TABLE idempotency_keys (
                key_hash BLOB PRIMARY KEY NOT NULL,
                request_hash BLOB NOT NULL,
                status INTEGER,
                content_type TEXT,
                body BLOB,
                locked_until REAL NOT NULL,
                expires_at REAL NOT NULL
            ) STRICT;

            CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
            """
    )
}
