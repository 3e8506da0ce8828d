import PasskeyStorePostgres
import PostgresTestSupport
import Testing

/// A store in a fresh schema for a whole suite: created before its first test, shut down and dropped after the last.
struct FreshStoreTrait: SuiteTrait, TestScoping {
    @TaskLocal static var store: PostgresPasskeyStore?

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard TestDatabase.isConfigured else { return try await function() }
        try await TestDatabase.withSchema("suite") { schema in
            let store = try await schema.connect()
            do {
                try await Self.$store.withValue(store) { try await function() }
            } catch {
                await store.shutdown()
                throw error
            }
            await store.shutdown()
        }
    }
}

extension Trait where Self == FreshStoreTrait {
    /// Gives the suite's tests a store in a schema of their own, as ``FreshStoreTrait/store``.
    static var freshStore: Self { Self() }
}
