import Foundation
import PasskeyStorage
import Testing

@testable import PasskeyStoreSQLite

@Suite("SQLite migrations with a missing version")
struct MigrationGapTests {
    @Test("a file migrated past a missing version gets that version once it is known, and only it")
    func missingVersionAppliedLater() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let newest = try #require(Migrations.all.last)
            let withoutNewest = Array(Migrations.all.dropLast())
            let skipping =
                withoutNewest + [
                    Migration(version: newest.version + 2, name: "later", script: "CREATE TABLE later (x TEXT) STRICT")
                ]
            let first = try await SQLitePasskeyStore.open(path: path, busyTimeout: .seconds(5), migrations: skipping)
            #expect(first.migrationsApplied == Migrations.all.dropLast().map(\.version) + [newest.version + 2])
            await first.close()

            let filled =
                withoutNewest + [
                    Migration(version: newest.version + 1, name: "gap", script: "CREATE TABLE gap (x TEXT) STRICT"),
                    skipping[skipping.count - 1],
                ]
            let second = try await SQLitePasskeyStore.open(path: path, busyTimeout: .seconds(5), migrations: filled)
            #expect(second.migrationsApplied == [newest.version + 1])
            await second.close()
        }
    }
}
