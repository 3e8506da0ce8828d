import PasskeyStorage

extension Migrations {
    /// Token sessions: the keys that sign access tokens, and the refresh-token families of the sign-ins that asked for
    /// a session, with every refresh token of a family kept by its SHA-256 until the family is purged (a used token
    /// presented again is a reuse). `is_current` is true for the one key that signs new tokens and NULL for retired
    /// keys: its unique constraint allows one current key, so processes that each find none insert one between them
    /// (`ON CONFLICT DO NOTHING`).
    static let tokenSessions = Migration(
        version: 16,
        name: "token sessions",
        statements: [
            """
            CREATE TABLE session_signing_keys (
                id text PRIMARY KEY,
                private_key bytea NOT NULL,
                public_key bytea NOT NULL,
                created_at timestamptz NOT NULL,
                is_current boolean UNIQUE CHECK (is_current),
                retired_at timestamptz,
                published_until timestamptz
            )
            """,
            """
            CREATE TABLE refresh_token_families (
                id text PRIMARY KEY,
                user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                auth_time timestamptz NOT NULL,
                methods text NOT NULL,
                assurance text NOT NULL,
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                revoked_at timestamptz,
                revocation text CHECK (revocation IN ('revoked', 'reuse', 'reset'))
            )
            """,
            "CREATE INDEX refresh_token_families_by_user ON refresh_token_families (user_id, created_at)",
            "CREATE INDEX refresh_token_families_by_expiry ON refresh_token_families (expires_at)",
            """
            CREATE TABLE refresh_tokens (
                token_hash bytea PRIMARY KEY,
                family_id text NOT NULL REFERENCES refresh_token_families (id) ON DELETE CASCADE,
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                used_at timestamptz
            )
            """,
            "CREATE INDEX refresh_tokens_by_family ON refresh_tokens (family_id)",
        ]
    )
}
