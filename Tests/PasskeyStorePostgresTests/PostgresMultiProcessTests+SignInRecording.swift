import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyTesting
import PostgresTestSupport
import Testing

/// Recording a verified sign-in (the credential's use and the flow's update in one statement) across processes:
/// of racing recordings from one counter, one is written, with its flow, and no other flow moves.
extension PostgresMultiProcessTests {
    /// An authentication flow of `userID` waiting for its assertion's verification.
    static func verifyingFlow(of userID: String, in store: PostgresPasskeyStore) async throws -> FlowRecord {
        let flow = FlowRecord.fixture(kind: .authentication, status: .verifying, userID: userID)
        try await store.createFlow(flow)
        return flow
    }

    @Test("10 rounds of 20 sign-ins from one counter, alternating between the stores: one recorded each round")
    func signInRecordingRace() async throws {
        try await withTwoStores("sign_in_race") { stores in
            for _ in 0..<10 {
                let credential = try await Self.activeCredential(in: stores[0], signCount: 5)
                var flows: [FlowRecord] = []
                for index in 0..<20 {
                    flows.append(try await Self.verifyingFlow(of: credential.userID, in: stores[index % 2]))
                }
                let outcomes = try await withThrowingTaskGroup(of: (String, AuthenticationRecording).self) { group in
                    for (index, flow) in flows.enumerated() {
                        group.addTask {
                            let recording = try await stores[index % 2].recordAuthentication(
                                CredentialUse(
                                    credentialID: credential.id,
                                    expectedSignCount: 5,
                                    signCount: UInt32(6 + index),
                                    backupState: true
                                ),
                                flowID: flow.id,
                                expectedStatuses: [.verifying],
                                flowUpdate: FlowUpdate(status: .completed),
                                at: Self.now + 1
                            )
                            return (flow.id, recording)
                        }
                    }
                    return try await group.reduce(into: [(String, AuthenticationRecording)]()) { $0.append($1) }
                }
                let recorded = outcomes.compactMap { flowID, outcome -> (String, CredentialRecordRow)? in
                    if case .recorded(let credential, let flow) = outcome, flow.id == flowID, flow.status == .completed
                    {
                        return (flowID, credential)
                    }
                    return nil
                }
                #expect(recorded.count == 1, "\(recorded.count) sign-ins were recorded; exactly one may")
                let stored = try await stores[1].credential(id: credential.id)
                #expect(stored == recorded.first?.1)
                // Every loser heard of the winner's counter, and its flow did not move.
                for (flowID, outcome) in outcomes where flowID != recorded.first?.0 {
                    #expect(outcome == .credentialNotRecorded(current: stored))
                    #expect(try await stores[0].flow(id: flowID)?.status == .verifying)
                }
            }
        }
    }

    @Test("sign-ins racing a revocation and a move of their flow through the other store: both written, or neither")
    func signInRecordingRacingOthers() async throws {
        try await withTwoStores("sign_in_others") { stores in
            for round in 0..<10 {
                let credential = try await Self.activeCredential(in: stores[0], signCount: 1)
                let flow = try await Self.verifyingFlow(of: credential.userID, in: stores[0])
                let revoke = round % 2 == 0
                async let other: Void = {
                    if revoke {
                        _ = try await stores[0].revokeCredential(id: credential.id, at: Self.now + 5)
                    } else {
                        _ = try await stores[0].updateFlow(
                            id: flow.id,
                            expectedStatuses: [.verifying],
                            at: Self.now + 1,
                            update: FlowUpdate(status: .failed)
                        )
                    }
                }()
                async let recording = stores[1].recordAuthentication(
                    CredentialUse(credentialID: credential.id, expectedSignCount: 1, signCount: 2, backupState: false),
                    flowID: flow.id,
                    expectedStatuses: [.verifying],
                    flowUpdate: FlowUpdate(status: .completed),
                    at: Self.now + 1
                )
                let (_, outcome) = try await (other, recording)
                let stored = try #require(try await stores[1].credential(id: credential.id))
                let storedFlow = try #require(try await stores[1].flow(id: flow.id))
                if case .recorded = outcome {
                    // Recorded first: the revocation or the move came after, on what it wrote. A revocation resets the
                    // user, which voids the result not redeemed yet.
                    #expect(stored.signCount == 2 && stored.lastUsedAt == Self.now + 1)
                    #expect(storedFlow.status == (revoke ? .aborted : .completed))
                } else {
                    #expect(stored.signCount == 1 && stored.lastUsedAt == nil)
                    #expect(storedFlow.status == (revoke ? .aborted : .failed))
                    #expect(outcome == (revoke ? .credentialNotRecorded(current: stored) : .flowNotUpdated))
                }
                #expect(stored.status == (revoke ? .revoked : .active))
            }
        }
    }
}
