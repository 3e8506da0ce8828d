import PasskeyStorage

extension Migrations {
    /// The answers of backend requests sent with an `Idempotency-Key`, by the hash of the caller, method, path and
    /// key; `status` is null while the first request runs.
    static let idempotencyKeys = Migration(
        version: 13,
        name: "idempotency keys",
        statements: [
            """
            CREATE TABLE idempotency_keys (
                key_hash bytea PRIMARY KEY,
                request_hash bytea NOT NULL,
                status integer,
                content_type text,
                body bytea,
                locked_until timestamptz NOT NULL,
                expires_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at)",
        ]
    )
}
