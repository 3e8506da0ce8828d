import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyTesting
import PostgresTestSupport
import Testing

/// Recording a credential's use is a compare-and-set across processes: a use cannot outlive a revocation made by
/// another process, and of two processes recording uses from the same counter, one wins.
extension PostgresMultiProcessTests {
    /// An active credential with the counter `signCount`, of a new user, inserted through `store`.
    static func activeCredential(
        in store: PostgresPasskeyStore,
        signCount: UInt32
    ) async throws -> CredentialRecordRow {
        let id = "user-\(UUID())"
        let user = try await store.createUserIfAbsent(
            UserRecord(id: id, handle: bytes(), name: id, displayName: "Ada", createdAt: now)
        )
        let flow = FlowRecord.fixture(status: .verifying, userID: user.id)
        try await store.createFlow(flow)
        var credential = credential(of: user.id, flowID: flow.id)
        credential.signCount = signCount
        try await store.insertCredential(
            credential,
            maximumActive: 10,
            flowID: flow.id,
            flowUpdate: FlowUpdate(),
            at: now
        )
        return credential
    }

    @Test("a credential revoked through one store records no use through the other")
    func useAfterRevocationElsewhere() async throws {
        try await withTwoStores("use_revoked") { stores in
            let credential = try await Self.activeCredential(in: stores[0], signCount: 3)
            let revoked = try await stores[0].revokeCredential(id: credential.id, at: Self.now + 1)
            #expect(revoked?.status == .revoked)
            let used = try await stores[1].recordSignIn(
                id: credential.id,
                expectedSignCount: 3,
                signCount: 4,
                backupState: false,
                at: Self.now + 2
            )
            #expect(used == nil)
            #expect(try await stores[0].credential(id: credential.id) == revoked)
        }
    }

    @Test("20 pairs of uses from one counter, one through each store at once: one of each pair wins")
    func useRace() async throws {
        try await withTwoStores("use_race") { stores in
            for _ in 0..<20 {
                let credential = try await Self.activeCredential(in: stores[0], signCount: 5)
                let id = credential.id
                let winners = try await withThrowingTaskGroup(of: UInt32?.self) { group in
                    for (store, next) in zip(stores, [UInt32(6), 7]) {
                        group.addTask {
                            try await store.recordSignIn(
                                id: id,
                                expectedSignCount: 5,
                                signCount: next,
                                backupState: true,
                                at: Self.now + TimeInterval(next)
                            )?.signCount
                        }
                    }
                    return try await group.compactMap { $0 }.reduce(into: [UInt32]()) { $0.append($1) }
                }
                #expect(winners.count == 1)
                let stored = try await stores[1].credential(id: id)
                #expect(stored?.signCount == winners.first)
            }
        }
    }

    @Test("uses racing a revocation through the other store: the credential ends revoked, and no use follows it")
    func useRacingRevocation() async throws {
        try await withTwoStores("use_revoke_race") { stores in
            for _ in 0..<10 {
                let credential = try await Self.activeCredential(in: stores[0], signCount: 1)
                let id = credential.id
                async let revoked = stores[0].revokeCredential(id: id, at: Self.now + 5)
                async let used = stores[1].recordSignIn(
                    id: id,
                    expectedSignCount: 1,
                    signCount: 2,
                    backupState: false,
                    at: Self.now + 1
                )
                let (revocation, use) = try await (revoked, used)
                let stored = try await stores[1].credential(id: id)
                #expect(revocation != nil && stored?.status == .revoked)
                // A use that won came before the revocation, which then revoked the used record.
                #expect(stored?.signCount == (use == nil ? 1 : 2))
                #expect(revocation?.signCount == stored?.signCount)
            }
        }
    }
}
