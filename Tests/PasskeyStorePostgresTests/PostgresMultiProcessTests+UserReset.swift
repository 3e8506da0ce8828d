import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyTesting
import Testing

/// A user's reset through one process and a registration of theirs completing through the other: the registration
/// either lands first and the reset revokes its credential, or it is refused — never an active credential from a
/// flow opened before the reset.
extension PostgresMultiProcessTests {
    @Test("20 registrations completing through one store while the other finalizes a recovery: none stays active")
    func registrationResetRace() async throws {
        try await withTwoStores("user_reset") { stores in
            for round in 0..<20 {
                let fixture = try await RecoveryFixture.exchanged(in: stores[0])
                let flow = FlowRecord.fixture(status: .verifying, userID: fixture.user.id)
                try await stores[0].createFlow(flow)
                let thief = Self.credential(of: fixture.user.id, name: "Thief", flowID: flow.id)
                let (registrar, resetter) = round.isMultiple(of: 2) ? (stores[0], stores[1]) : (stores[1], stores[0])
                async let inserted: Bool = {
                    do {
                        try await registrar.insertCredential(
                            thief,
                            maximumActive: 10,
                            flowID: flow.id,
                            flowUpdate: FlowUpdate(status: .completed),
                            at: Self.now
                        )
                        return true
                    } catch let error as StoreError where error.code == .flowEnded {
                        return false
                    }
                }()
                async let finalized = resetter.finalizeRecovery(
                    attemptID: fixture.attempt.id,
                    revoking: .all,
                    at: Self.now
                )
                let (insert, finalize) = try await (inserted, finalized)
                #expect(finalize != nil)
                let stored = try await stores[1].credential(id: thief.id)
                if insert {
                    #expect(stored?.status == .revoked, "round \(round): the reset must revoke what landed first")
                } else {
                    #expect(stored == nil, "round \(round): a refused registration leaves nothing")
                }
                #expect(
                    try await stores[0].credentials(userID: fixture.user.id).filter { $0.status == .active }.map(\.id)
                        == [fixture.replacement.id],
                    "round \(round): only the replacement may be active"
                )
            }
        }
    }
}
