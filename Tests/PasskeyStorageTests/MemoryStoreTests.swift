import PasskeyStorage
import PasskeyTesting
import Testing

@Suite("Memory store conformance")
struct MemoryStoreTests {
    static let store = MemoryPasskeyStore()

    @Test("every role's suite, on one shared store", arguments: StoreConformance.checks)
    func conformance(_ check: StoreConformanceCheck) async throws {
        try await check.run(Self.store)
    }

    @Test("each isolated check, on a store of its own", arguments: StoreConformance.isolatedChecks)
    func isolated(_ check: StoreConformanceCheck) async throws {
        try await check.run(MemoryPasskeyStore())
    }
}
