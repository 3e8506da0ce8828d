/// The catalogue of schema changes that both SQL adapters make, so that a version means the same schema in both.
///
/// Until version 10 each adapter numbered its own migrations: PostgreSQL has one SQLite does not need (an index of
/// users in byte order, its version 2), so the same change came one version later there. Version
/// ``alignedVersion`` (11) is where they meet: PostgreSQL's console passkeys, and SQLite's no-op alignment step (its
/// console passkeys are version 10). Released versions are never renumbered: existing databases have recorded them.
///
/// **Adding a migration.** Append its name to ``sinceAlignment``; then add it to both adapters — a file
/// `Migrations+Change.swift` in `Sources/PasskeyStoreSQLite` and one in `Sources/PasskeyStorePostgres`, each a
/// ``SchemaMigration`` with version ``alignedVersion`` + its position in ``sinceAlignment`` (the first is 12) and
/// this name — and list it last in both `Migrations.all`. Each adapter's `MigrationCatalogueTests` fails until its
/// migrations after ``alignedVersion`` are exactly these, at these versions. A change one database does not need
/// still takes its version in both: the other gets an empty step of the same name.
package enum SchemaChanges {
    /// The version at which both adapters' schemas have the same number; from the next one on, a change has the
    /// same version in both.
    package static let alignedVersion = 11

    /// The changes after ``alignedVersion``, in order: the first is version 12 in both adapters.
    package static let sinceAlignment: [String] = [
        "purged registrations", "idempotency keys", "audit hash chain", "webhook outbox", "token sessions",
        "users by name in byte order",
    ]

    /// The newest version both adapters migrate to.
    package static var latestVersion: Int { alignedVersion + sinceAlignment.count }

    /// The version each change of ``sinceAlignment`` has, with its name.
    package static var versions: [(version: Int, name: String)] {
        sinceAlignment.enumerated().map { (alignedVersion + 1 + $0.offset, $0.element) }
    }
}

extension SchemaChanges {
    /// How an adapter's migrations differ from the catalogue: each migration after ``alignedVersion`` that is not the
    /// catalogue's change at its version, each change of the catalogue they lack, and a newest version other than
    /// ``latestVersion``. Empty when they agree; each adapter's tests expect it empty.
    package static func differences(from migrations: [SchemaMigration]) -> [String] {
        let listed = migrations.filter { $0.version > alignedVersion }.map { "\($0.version) \($0.name)" }
        let catalogued = versions.map { "\($0.version) \($0.name)" }
        var differences = listed.filter { !catalogued.contains($0) }.map { "not in the catalogue: \($0)" }
        differences += catalogued.filter { !listed.contains($0) }.map { "missing: \($0)" }
        let newest = migrations.map(\.version).max() ?? 0
        if newest != latestVersion {
            differences.append("the newest version is \(newest), the catalogue's \(latestVersion)")
        }
        return differences
    }
}
