import HTTPTypes
import HummingbirdTesting
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// A handoff across two server instances on one PostgreSQL database: its state lives in the store, so the phone and
/// the first device may reach different instances.
extension PostgresScaleOutTests {
    @Test("20 resumes of one handoff token through two instances: exactly one wins")
    func handoffClaimAcrossInstances() async throws {
        try await Self.withTwoInstances { a, b in
            var phone = TestAuthenticator()
            let (_, handoff) = try await a.handedOffSession("alice", phone: &phone)
            let results = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for index in 0..<20 {
                    let api = index.isMultiple(of: 2) ? a : b
                    group.addTask { try await api.resume(handoff.handoffToken) }
                }
                return try await group.reduce(into: [APIResponse]()) { $0.append($1) }
            }
            #expect(results.count { $0.status == .ok } == 1)
            for loser in results where loser.status != .ok {
                expectError(loser, "HANDOFF_ALREADY_CLAIMED", .conflict)
            }
        }
    }

    @Test("the first device follows one instance while the phone uses the other: every change reaches its events")
    func handoffStatusAcrossInstances() async throws {
        try await Self.withTwoInstances { a, b in
            var phone = TestAuthenticator()
            let (session, handoff) = try await a.handedOffSession("bea", phone: &phone)
            // The stream reads the store every half second; three seconds leave room for a loaded machine.
            let stream = try HandoffEventStream(
                port: try #require(a.client.port),
                handoff: handoff,
                receiveTimeout: .seconds(3)
            )
            #expect(try await stream.next() == "pending")
            let resumed = try await b.resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
            #expect(try await stream.next() == "claimed")
            #expect(try await a.handoffStatus(handoff) == "claimed")
            _ = try await b.confirm(resumed, code: handoff.verificationCode).expect(.ok, JSONValue.self)
            #expect(try await stream.next() == "confirmed")
            #expect(try await b.sign(resumed, phone: &phone).status == .ok)
            #expect(try await stream.next() == "approved")
            #expect(try await stream.next() == nil)
            #expect(try await a.redeem(session, handoff.pollToken).status == .ok)
        }
    }
}
