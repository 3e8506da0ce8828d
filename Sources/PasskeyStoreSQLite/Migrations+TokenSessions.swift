import PasskeyStorage

extension Migrations {
    /// Token sessions: the keys that sign access tokens, and the refresh-token families of the sign-ins that asked for
    /// a session, with every refresh token of a family kept by its SHA-256 until the family is purged (a used token
    /// presented again is a reuse).
    static let tokenSessions = Migration(
        version: 16,
        name: "token sessions",
        script: """
            -- is_current is 1 for the one key that signs new tokens and NULL for retired keys: its unique constraint
            -- allows one current key, so two processes that each find none cannot both insert one.
            CREATE TABLE session_signing_keys (
                id TEXT PRIMARY KEY NOT NULL,
                private_key BLOB NOT NULL,
                public_key BLOB NOT NULL,
                created_at REAL NOT NULL,
                is_current INTEGER UNIQUE CHECK (is_current = 1),
                retired_at REAL,
                published_until REAL
            ) STRICT;

            CREATE TABLE refresh_token_families (
                id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                auth_time REAL NOT NULL,
                -- the RFC 8176 method names, separated by spaces
                methods TEXT NOT NULL,
                assurance TEXT NOT NULL,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                revoked_at REAL,
                revocation TEXT CHECK (revocation IN ('revoked', 'reuse', 'reset'))
            ) STRICT;

            CREATE INDEX refresh_token_families_by_user ON refresh_token_families (user_id, created_at);
            -- Purging deletes the families past their absolute lifetime along this index.
            CREATE INDEX refresh_token_families_by_expiry ON refresh_token_families (expires_at);

            CREATE TABLE refresh_tokens (
                token_hash BLOB PRIMARY KEY NOT NULL,
                family_id TEXT NOT NULL REFERENCES refresh_token_families (id) ON DELETE CASCADE,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                used_at REAL
            ) STRICT;

            CREATE INDEX refresh_tokens_by_family ON refresh_tokens (family_id);
            """
    )
}
