import PasskeyStorage

extension Migrations {
    /// User names become unique per relying party. Rows written before may share a name (a user created by the
    /// backend API and another by the demo page): the oldest user of each name (by creation time, then id) keeps it,
    /// and each later one is renamed `name#id`, which is unique because ids are. Nothing else of theirs changes, and
    /// the rename is visible in the console and the users API.
    static let uniqueUserNames = Migration(
        version: 8,
        name: "unique user names",
        script: """
            UPDATE users SET name = name || '#' || id
            WHERE EXISTS (
                SELECT 1 FROM users AS older
                WHERE older.name = users.name
                AND (older.created_at < users.created_at OR (older.created_at = users.created_at AND older.id < users.id))
            );

            CREATE UNIQUE INDEX users_by_name ON users (name);
            """
    )
}
