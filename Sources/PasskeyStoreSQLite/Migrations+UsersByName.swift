import PasskeyStorage

extension Migrations {
    /// No change to the schema: PostgreSQL's version 17 indexes users by name in byte order, which SQLite's unique
    /// index on `name` (BINARY collation) already is. The step keeps the two adapters' versions the same.
    static let usersByName = Migration(
        version: 17,
        name: "users by name in byte order",
        statements: []
    )
}
