import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PostgresNIO
import PostgresTestSupport
import Testing

extension PostgresMigrationTests {
    @Test("a schema whose users share names gets unique names: the oldest keeps each name, the later ones name#id")
    func upgradeToUniqueUserNames() async throws {
        try await TestDatabase.withSchema("names") { schema in
            let first = try await schema.connect()
            await first.shutdown()
            try await dropUniqueUserNames(in: schema)
            // Three users named ada (two created at the same time, so the id decides), one bob.
            try await schema.execute(
                """
                INSERT INTO users (id, handle, name, display_name, created_at) VALUES
                ('user-c', '\\x01', 'ada', 'Ada C', '2027-01-01T00:00:00Z'),
                ('user-b', '\\x02', 'ada', 'Ada B', '2026-01-01T00:00:00Z'),
                ('user-a', '\\x03', 'ada', 'Ada A', '2026-01-01T00:00:00Z'),
                ('user-d', '\\x04', 'bob', 'Bob', '2026-01-01T00:00:00Z')
                """
            )
            let store = try await schema.connect()
            #expect(try await versions(in: schema) == PostgresPasskeyStore.schemaVersions)
            #expect(try await store.user(name: "ada")?.id == "user-a")
            #expect(try await store.user(id: "user-b")?.name == "ada#user-b")
            #expect(try await store.user(id: "user-c")?.name == "ada#user-c")
            #expect(try await store.user(name: "bob")?.id == "user-d")
            #expect(try await store.user(id: "user-b")?.displayName == "Ada B")
            let taken = UserRecord(id: "user-e", handle: [5], name: "ada", displayName: "E", createdAt: .now)
            await #expect(throws: StoreError.userNameTaken) { _ = try await store.createUserIfAbsent(taken) }
            await store.shutdown()
        }
    }
}
