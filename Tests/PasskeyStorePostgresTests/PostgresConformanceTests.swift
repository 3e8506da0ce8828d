import PasskeyStorePostgres
import PasskeyTesting
import PostgresTestSupport
import Testing

@Suite("PostgreSQL store conformance", .enabled(if: TestDatabase.isConfigured, TestDatabase.skipped), .freshStore)
struct PostgresConformanceTests {
    @Test("every role's suite, on one shared store", arguments: StoreConformance.checks)
    func conformance(_ check: StoreConformanceCheck) async throws {
        try await check.run(try #require(FreshStoreTrait.store))
    }

    @Test("each isolated check, on a schema of its own", arguments: StoreConformance.isolatedChecks)
    func isolated(_ check: StoreConformanceCheck) async throws {
        try await TestDatabase.withSchema("isolated") { schema in
            let store = try await schema.connect()
            do {
                try await check.run(store)
            } catch {
                await store.shutdown()
                throw error
            }
            await store.shutdown()
        }
    }
}
