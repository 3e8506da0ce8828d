import PostgresTestSupport
import Testing

/// The tests' own PostgreSQL helper: when it fails, the failure must say why (PostgresNIO's errors describe
/// themselves only generically).
@Suite("PostgreSQL test helper", .enabled(if: TestDatabase.isConfigured, TestDatabase.skipped))
struct TestDatabaseTests {
    @Test("a statement the server refuses fails with the server's message")
    func refusedStatement() async throws {
        let failure = await #expect(throws: TestDatabase.Failure.self) {
            try await TestDatabase.execute("SELEC 1")
        }
        #expect(failure?.description.contains("syntax error") == true)
    }
}
