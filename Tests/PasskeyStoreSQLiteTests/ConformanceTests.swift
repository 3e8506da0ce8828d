import PasskeyStorage
import PasskeyTesting
import Testing

@testable import PasskeyStoreSQLite

@Suite("SQLite store conformance")
struct ConformanceTests {
    /// Runs `body` on a store whose operations wait up to two minutes for the connection (not fifteen seconds): the
    /// checks run at once, dozens of concurrent operations each, and a loaded two-core machine must not turn that
    /// queue into failures. ``ConnectionQueueTests`` checks the bound itself.
    func withStore(at path: String, _ body: (SQLitePasskeyStore) async throws -> Void) async throws {
        let store = try await SQLitePasskeyStore.open(
            path: path,
            busyTimeout: .seconds(5),
            migrations: Migrations.all,
            waitTimeout: .seconds(120)
        )
        do {
            try await body(store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test(
        "each check, on a store of its own on a real file",
        arguments: StoreConformance.checks + StoreConformance.isolatedChecks
    )
    func conformance(_ check: StoreConformanceCheck) async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { store in try await check.run(store) }
        }
    }

    @Test("every check at once, on one shared store")
    func allChecksConcurrently() async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { store in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for check in StoreConformance.checks {
                        group.addTask { try await check.run(store) }
                    }
                    try await group.waitForAll()
                }
            }
        }
    }
}
