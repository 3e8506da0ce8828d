import PasskeyStorage

extension Migrations {
    /// The ids of purged registration attempts, kept as long again as the attempt lived, so that a client that still
    /// holds one is told it was cleaned up rather than that it never existed.
    static let purgedRegistrations = Migration(
        version: 12,
        name: "purged registrations",
        script: """
            CREATE TABLE purged_registrations (
                id TEXT PRIMARY KEY NOT NULL,
                purged_at REAL NOT NULL,
                forget_at REAL NOT NULL
            ) STRICT;

            CREATE INDEX purged_registrations_by_forget ON purged_registrations (forget_at);
            """
    )
}
