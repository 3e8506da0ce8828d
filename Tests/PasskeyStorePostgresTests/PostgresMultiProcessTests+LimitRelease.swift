import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PostgresTestSupport
import Testing

/// Releasing a counted limit event is atomic with counting across processes.
extension PostgresMultiProcessTests {
    @Test("a limit event released through one store while the other counts: every release is one event less")
    func limitReleaseRace() async throws {
        try await withTwoStores("limit_release") { stores in
            let key = Self.bytes()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<60 {
                    let counting = stores[index % 2]
                    let releasing = stores[(index + 1) % 2]
                    group.addTask {
                        _ = try await counting.countLimitEvent(keyHash: key, window: 60, at: Self.now)
                        if index >= 10 { try await releasing.releaseLimitEvent(keyHash: key, at: Self.now + 1) }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await stores[0].limitWindows(keyHashes: [key], at: Self.now + 1).map(\.count) == [10])
        }
    }
}
