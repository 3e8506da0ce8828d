import PasskeyStorage

extension Migrations {
    /// No change to the schema: SQLite's version 11 is PostgreSQL's, whose migrations had one more step (an index of
    /// users in byte order, which SQLite's BINARY collation does not need). From here on a change has the same version
    /// in both adapters (see `SchemaChanges`).
    static let versionAlignment = Migration(
        version: 11,
        name: "version alignment with PostgreSQL",
        statements: []
    )
}
