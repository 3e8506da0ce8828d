import Foundation
import PasskeyStorage
import SQLiteNIO
import Testing

@testable import PasskeyStoreSQLite

@Suite("SQLite migration to unique user names")
struct UniqueUserNamesMigrationTests {
    @Test("a file whose users share names gets unique names: the oldest keeps each name, the later ones name#id")
    func duplicatesAreRenamed() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let previous = try await SQLitePasskeyStore.open(
                path: path,
                busyTimeout: .seconds(5),
                migrations: Migrations.all.filter { $0.version < 8 }
            )
            await previous.close()
            // Three users named ada (two created at the same time, so the id decides), one bob.
            try await withRawConnection(to: path) { connection in
                for (id, handle, name, created) in [
                    ("user-c", 1, "ada", 2.0), ("user-b", 2, "ada", 1.0), ("user-a", 3, "ada", 1.0),
                    ("user-d", 4, "bob", 1.0),
                ] {
                    _ = try await connection.query(
                        "INSERT INTO users (id, handle, name, display_name, created_at) VALUES (?, ?, ?, ?, ?)",
                        [
                            .text(id), .blob(ByteBuffer(bytes: [UInt8(handle)])), .text(name), .text("Ada \(id)"),
                            .float(created),
                        ]
                    )
                }
            }
            try await withStore(at: path) { (store: SQLitePasskeyStore) async throws in
                #expect(store.migrationsApplied == Migrations.all.map(\.version).filter { $0 >= 8 })
                #expect(try await store.user(name: "ada")?.id == "user-a")
                #expect(try await store.user(id: "user-b")?.name == "ada#user-b")
                #expect(try await store.user(id: "user-c")?.name == "ada#user-c")
                #expect(try await store.user(id: "user-c")?.displayName == "Ada user-c")
                #expect(try await store.user(name: "bob")?.id == "user-d")
                var taken = Sample.user()
                taken.name = "ada"
                do {
                    _ = try await store.createUserIfAbsent(taken)
                    Issue.record("a second ada must be refused")
                } catch {
                    #expect((error as? StoreError)?.code == .nameTaken)
                }
            }
            // The index holds the rule even for a writer that does not check first.
            var refused = false
            do {
                _ = try await withRawConnection(to: path) { connection in
                    try await connection.query(
                        "INSERT INTO users (id, handle, name, display_name, created_at) VALUES ('user-x', x'09', 'bob', 'B', 1)"
                    )
                }
            } catch {
                refused = true
            }
            #expect(refused, "the unique index must refuse a second bob")
        }
    }
}
