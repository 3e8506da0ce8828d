import PasskeyStorage
import Testing

/// The check each SQL adapter's tests run against the catalogue of schema changes.
@Suite("The catalogue of schema changes")
struct SchemaChangesTests {
    /// Migrations up to the catalogue's newest version, as an adapter that follows it lists them.
    let following = (1...SchemaChanges.latestVersion).map { version in
        SchemaMigration(
            version: version,
            name: SchemaChanges.versions.first { $0.version == version }?.name ?? "before the alignment \(version)",
            statements: []
        )
    }

    @Test("migrations that follow the catalogue differ in nothing")
    func agreement() {
        #expect(SchemaChanges.differences(from: following) == [])
    }

    @Test("a migration the catalogue lacks, or a newest version behind it, is a difference")
    func drift() {
        let next = SchemaMigration(version: SchemaChanges.latestVersion + 1, name: "drift", statements: [])
        #expect(!SchemaChanges.differences(from: following + [next]).isEmpty)
        #expect(!SchemaChanges.differences(from: following.dropLast()).isEmpty)
    }
}
