/// One numbered change to a SQL adapter's schema: its statements, applied in one transaction with its row in
/// `schema_migrations`. A released migration never changes (existing databases have applied it): a change to the
/// schema is a new migration, at the next version, in both SQL adapters (see ``SchemaChanges``).
///
/// `SQLitePasskeyStore` and `PostgresPasskeyStore` both list theirs as `Migrations.all`, one file
/// `Migrations+Change.swift` for each migration since ``SchemaChanges/alignedVersion``.
package struct SchemaMigration: Sendable {
    package let version: Int
    /// What the migration changes, in a few words; recorded in `schema_migrations`.
    package let name: String
    /// The SQL statements, in order.
    package let statements: [String]

    package init(version: Int, name: String, statements: [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }
}
