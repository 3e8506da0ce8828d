import PasskeyStorage
import Testing

@testable import PasskeyStorePostgres

/// The same change has the same version in both SQL adapters: PostgreSQL's migrations against `SchemaChanges`.
@Test("PostgreSQL's migrations since the alignment are the catalogue's, at its versions")
func migrationsFollowTheCatalogue() {
    #expect(SchemaChanges.differences(from: Migrations.all) == [])
}
