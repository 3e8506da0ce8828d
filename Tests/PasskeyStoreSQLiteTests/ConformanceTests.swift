import PasskeyStorage
import PasskeyStoreSQLite
import PasskeyTesting
import Testing

@Suite("SQLite store conformance")
struct ConformanceTests {
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
