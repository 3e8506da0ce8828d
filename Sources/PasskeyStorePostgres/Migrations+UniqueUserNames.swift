import PasskeyStorage

extension Migrations {
    /// User names become unique per relying party. Rows written before may share a name (a user created by the
    /// backend API and another by the demo page): the oldest user of each name (by creation time, then id) keeps it,
    /// and each later one is renamed `name#id`, which is unique because ids are. Nothing else of theirs changes, and
    /// the rename is visible in the console and the users API.
    static let uniqueUserNames = Migration(
        version: 9,
        name: "unique user names",
        statements: [
            """
            UPDATE users SET name = users.name || '#' || users.id
            FROM (
                SELECT id, row_number() OVER (PARTITION BY name ORDER BY created_at, id COLLATE "C") AS rank FROM users
            ) AS ranked
            WHERE ranked.id = users.id AND ranked.rank > 1
            """,
            "CREATE UNIQUE INDEX users_name_key ON users (name)",
        ]
    )
}
