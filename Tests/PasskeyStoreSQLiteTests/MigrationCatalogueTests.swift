import PasskeyStorage
import Testing

@testable import PasskeyStoreSQLite

/// The same change has the same version in both SQL adapters: SQLite's migrations against `SchemaChanges`.
@Test("SQLite's migrations since the alignment are the catalogue's, at its versions")
func migrationsFollowTheCatalogue() {
    #expect(SchemaChanges.differences(from: Migrations.all) == [])
}
