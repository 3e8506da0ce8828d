import PasskeyStorage

extension Migrations {
    /// The ids of purged registration attempts, kept as long again as the attempt lived, so that a client that still
    /// holds one is told it was cleaned up rather than that it never existed.
    static let purgedRegistrations = Migration(
        version: 12,
        name: "purged registrations",
        statements: [
            """
            CREATE TABLE purged_registrations (
                id text PRIMARY KEY,
                purged_at timestamptz NOT NULL,
                forget_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX purged_registrations_forget_at ON purged_registrations (forget_at)",
        ]
    )
}
