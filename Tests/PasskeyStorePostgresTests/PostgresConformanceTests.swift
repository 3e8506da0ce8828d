import PasskeyStorePostgres
import PasskeyTesting
import PostgresTestSupport
import Testing

@Suite("PostgreSQL store conformance", .enabled(if: TestDatabase.isConfigured, TestDatabase.skipped), .freshStore)
struct PostgresConformanceTests {
    @Test(arguments: StoreConformance.checks)
    func conformance(_ check: StoreConformanceCheck) async throws {
        try await check.run(try #require(FreshStoreTrait.store))
    }
}
