import PasskeyStorage
import PasskeyTesting
import Testing

@Suite("Memory store conformance")
struct MemoryStoreTests {
    static let store = MemoryPasskeyStore()

    @Test(arguments: StoreConformance.checks)
    func conformance(_ check: StoreConformanceCheck) async throws {
        try await check.run(Self.store)
    }

    @Test(arguments: StoreConformance.isolatedChecks)
    func isolated(_ check: StoreConformanceCheck) async throws {
        try await check.run(MemoryPasskeyStore())
    }
}
