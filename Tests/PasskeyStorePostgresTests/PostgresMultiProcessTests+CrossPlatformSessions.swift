import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyTesting
import PostgresTestSupport
import Testing

/// A handoff is created once, claimed once and its wrong codes counted once each, whichever process does it.
extension PostgresMultiProcessTests {
    /// A new user's authentication flow, created through `store`.
    static func authenticationFlow(in store: PostgresPasskeyStore) async throws -> FlowRecord {
        let user = try await store.createUserIfAbsent(
            UserRecord(id: "user-\(UUID())", handle: bytes(), name: "ada", displayName: "Ada", createdAt: now)
        )
        let flow = FlowRecord.fixture(
            id: "auth_\(UUID())",
            kind: .authentication,
            userID: user.id,
            expiresAt: now + 300,
            payload: Array("{}".utf8)
        )
        try await store.createFlow(flow)
        return flow
    }

    static func handoff(of flow: FlowRecord) -> CrossPlatformSessionRecord {
        CrossPlatformSessionRecord(
            id: "xps_\(UUID())",
            flowID: flow.id,
            handoffTokenHash: bytes(),
            pollTokenHash: bytes(),
            verificationCode: "42",
            createdAt: now,
            updatedAt: now,
            handoffExpiresAt: now + 120,
            expiresAt: flow.expiresAt
        )
    }

    @Test("50 handoffs of one flow through both stores at once: one is created")
    func handoffRace() async throws {
        try await withTwoStores("xps_create") { stores in
            let flow = try await Self.authenticationFlow(in: stores[0])
            let created = try await Self.winners(across: stores) { store in
                try await store.createCrossPlatformSession(
                    Self.handoff(of: flow),
                    flowPayload: Array("{}".utf8),
                    at: Self.now + 1
                )
            }
            #expect(created == 1)
            #expect(try await stores[1].flow(id: flow.id)?.status == .handedOff)
        }
    }

    @Test("50 claims of one handoff token through both stores at once: exactly one wins, and the flow has its token")
    func claimRace() async throws {
        try await withTwoStores("xps_claim") { stores in
            let flow = try await Self.authenticationFlow(in: stores[0])
            let handoff = Self.handoff(of: flow)
            #expect(
                try await stores[0].createCrossPlatformSession(handoff, flowPayload: Array("{}".utf8), at: Self.now)
            )
            let winners = try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
                for index in 0..<50 {
                    let store = stores[index % stores.count]
                    let token = Self.bytes()
                    group.addTask {
                        try await store.claimCrossPlatformSession(
                            handoffTokenHash: handoff.handoffTokenHash,
                            clientTokenHash: token,
                            at: Self.now + 1
                        )?.clientTokenHash
                    }
                }
                return try await group.compactMap { $0 }.reduce(into: [[UInt8]]()) { $0.append($1) }
            }
            #expect(winners.count == 1)
            for store in stores {
                #expect(try await store.flow(id: flow.id)?.clientTokenHash == winners.first)
                #expect(try await store.crossPlatformSession(id: handoff.id)?.clientTokenHash == winners.first)
            }
        }
    }

    @Test("30 wrong codes through both stores at once, rejecting at 3: three are counted, then it is rejected")
    func codeFailureRace() async throws {
        try await withTwoStores("xps_code") { stores in
            let flow = try await Self.authenticationFlow(in: stores[0])
            let handoff = Self.handoff(of: flow)
            #expect(
                try await stores[0].createCrossPlatformSession(handoff, flowPayload: Array("{}".utf8), at: Self.now)
            )
            _ = try await stores[1].claimCrossPlatformSession(
                handoffTokenHash: handoff.handoffTokenHash,
                clientTokenHash: Self.bytes(),
                at: Self.now + 1
            )
            let counts = try await withThrowingTaskGroup(of: Int?.self) { group in
                for index in 0..<30 {
                    let store = stores[index % stores.count]
                    group.addTask {
                        try await store.countCrossPlatformCodeFailure(id: handoff.id, rejectAt: 3, at: Self.now + 2)?
                            .codeFailures
                    }
                }
                return try await group.compactMap { $0 }.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(counts.sorted() == [1, 2, 3])
            let stored = try await stores[0].crossPlatformSession(id: handoff.id)
            #expect(stored?.status == .rejected)
            #expect(stored?.codeFailures == 3)
        }
    }
}
