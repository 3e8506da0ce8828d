import Foundation
import PasskeyStorage

extension Fixture {
    /// What a handed-off flow's payload becomes.
    static let handedOffPayload = Array(#"{"handedOff":true}"#.utf8)

    /// A pending handoff of `flowID`, claimable for 120 s.
    static func crossPlatformSession(flowID: String) -> CrossPlatformSessionRecord {
        CrossPlatformSessionRecord(
            id: id("xps"),
            flowID: flowID,
            handoffTokenHash: bytes(),
            pollTokenHash: bytes(),
            verificationCode: "07",
            createdAt: now,
            updatedAt: now,
            handoffExpiresAt: now + 120,
            expiresAt: now + 120
        )
    }

    /// A user with an authentication flow and its pending handoff, created in `store`.
    static func handoff(in store: any PasskeyStore) async throws -> (FlowRecord, CrossPlatformSessionRecord) {
        let user = try await store.createUserIfAbsent(user())
        let flow = flow(userID: user.id, kind: .authentication)
        try await store.createFlow(flow)
        let session = crossPlatformSession(flowID: flow.id)
        try require(
            try await store.createCrossPlatformSession(session, flowPayload: Fixture.handedOffPayload, at: now),
            "a created flow must be handed off"
        )
        return (flow, session)
    }
}

extension StoreConformance {
    static let crossPlatformSessions: [StoreConformanceCheck] = [
        StoreConformanceCheck("a handoff is found by id, token and flow, and hands the flow over") { store in
            let (flow, session) = try await Fixture.handoff(in: store)
            try require(try await store.crossPlatformSession(id: session.id) == session, "it must round-trip by id")
            try require(
                try await store.crossPlatformSession(handoffTokenHash: session.handoffTokenHash) == session,
                "it must be found by its handoff token's hash"
            )
            try require(try await store.crossPlatformSession(flowID: flow.id) == session, "it must be found by flow")
            let handed = try await store.flow(id: flow.id)
            try require(handed?.status == .handedOff, "the flow must be handed off: \(String(describing: handed))")
            try require(handed?.updatedAt == Fixture.now, "the flow's updatedAt must be the handoff's time")
            try require(handed?.payload == Fixture.handedOffPayload, "the flow must take the handoff's payload")
            try require(
                try await store.crossPlatformSession(handoffTokenHash: Fixture.bytes()) == nil,
                "an unknown token must find nothing"
            )
        },
        StoreConformanceCheck("handoffs are read by their ids in one call, each with its flow as it stands now") {
            store in
            let (firstFlow, first) = try await Fixture.handoff(in: store)
            let (secondFlow, second) = try await Fixture.handoff(in: store)
            try require(try await store.crossPlatformSessions(ids: []).isEmpty, "no ids must read nothing")
            let both = try await store.crossPlatformSessions(ids: [second.id, Fixture.id("xps"), first.id])
            let expected = [
                try await store.flow(id: firstFlow.id).map { CrossPlatformSessionFlow(session: first, flow: $0) },
                try await store.flow(id: secondFlow.id).map { CrossPlatformSessionFlow(session: second, flow: $0) },
            ].compactMap { $0 }
            try require(
                expected.count == 2 && both.count == 2 && Set(both) == Set(expected),
                "both handoffs must be read with their handed-off flows, and the unknown id left out: \(both)"
            )
            let claimed = try await store.claimCrossPlatformSession(
                handoffTokenHash: first.handoffTokenHash,
                clientTokenHash: Fixture.bytes(),
                at: Fixture.now + 1
            )
            let again = try await store.crossPlatformSessions(ids: [first.id])
            try require(
                again.map(\.session) == claimed.map { [$0] }
                    && again.first?.flow.clientTokenHash == claimed?.clientTokenHash,
                "a read must see the claim and the flow's new client token: \(again)"
            )
        },
        StoreConformanceCheck("a flow is handed off once, only while created and live, and only if it exists") {
            store in
            let (flow, first) = try await Fixture.handoff(in: store)
            let second = Fixture.crossPlatformSession(flowID: flow.id)
            try require(
                try await store.createCrossPlatformSession(
                    second,
                    flowPayload: Fixture.handedOffPayload,
                    at: Fixture.now
                ) == false,
                "a second handoff of the flow must be refused"
            )
            try require(try await store.crossPlatformSession(id: second.id) == nil, "a refused handoff is not stored")
            try require(try await store.crossPlatformSession(flowID: flow.id) == first, "the first handoff stays")

            let user = try await store.createUserIfAbsent(Fixture.user())
            let started = Fixture.flow(userID: user.id, kind: .authentication, status: .optionsIssued)
            try await store.createFlow(started)
            let late = Fixture.crossPlatformSession(flowID: started.id)
            try require(
                try await store.createCrossPlatformSession(late, flowPayload: Fixture.handedOffPayload, at: Fixture.now)
                    == false,
                "a flow whose options were issued must not be handed off"
            )
            try require(try await store.flow(id: started.id)?.status == .optionsIssued, "that flow is unchanged")
            let expired = Fixture.flow(userID: user.id, kind: .authentication, expiresAt: Fixture.now)
            try await store.createFlow(expired)
            try require(
                try await store.createCrossPlatformSession(
                    Fixture.crossPlatformSession(flowID: expired.id),
                    flowPayload: Fixture.handedOffPayload,
                    at: Fixture.now
                ) == false,
                "an expired flow must not be handed off"
            )
            try await requireStoreError(.notFound) {
                _ = try await store.createCrossPlatformSession(
                    Fixture.crossPlatformSession(flowID: Fixture.id("flow")),
                    flowPayload: Fixture.handedOffPayload,
                    at: Fixture.now
                )
            }
            let fresh = Fixture.flow(userID: user.id, kind: .authentication)
            try await store.createFlow(fresh)
            var sameToken = Fixture.crossPlatformSession(flowID: fresh.id)
            sameToken.handoffTokenHash = first.handoffTokenHash
            try await requireStoreError(.duplicate) {
                _ = try await store.createCrossPlatformSession(
                    sameToken,
                    flowPayload: Fixture.handedOffPayload,
                    at: Fixture.now
                )
            }
            try require(
                try await store.flow(id: fresh.id) == fresh,
                "a refused handoff must leave its flow as it was"
            )
        },
        StoreConformanceCheck("a claim wins once, before the handoff expires, and gives the flow its token") { store in
            let (flow, session) = try await Fixture.handoff(in: store)
            let token = Fixture.bytes()
            let claimed = try await store.claimCrossPlatformSession(
                handoffTokenHash: session.handoffTokenHash,
                clientTokenHash: token,
                at: Fixture.now + 5
            )
            var expected = session
            expected.status = .claimed
            expected.clientTokenHash = token
            expected.updatedAt = Fixture.now + 5
            try require(
                claimed == expected,
                "the claim must return the claimed session: \(String(describing: claimed))"
            )
            try require(try await store.crossPlatformSession(id: session.id) == expected, "the claim must be stored")
            try require(
                try await store.flow(id: flow.id)?.clientTokenHash == token,
                "the flow must take the claim's client token"
            )
            let again = try await store.claimCrossPlatformSession(
                handoffTokenHash: session.handoffTokenHash,
                clientTokenHash: Fixture.bytes(),
                at: Fixture.now + 6
            )
            try require(again == nil, "a second claim must fail")
            try require(try await store.flow(id: flow.id)?.clientTokenHash == token, "the first claim's token stays")

            let (_, late) = try await Fixture.handoff(in: store)
            let lateClaim = try await store.claimCrossPlatformSession(
                handoffTokenHash: late.handoffTokenHash,
                clientTokenHash: Fixture.bytes(),
                at: late.handoffExpiresAt
            )
            try require(lateClaim == nil, "a claim at the handoff's expiry must fail")
            try require(try await store.crossPlatformSession(id: late.id)?.status == .pending, "it stays pending")
        },
        StoreConformanceCheck("20 racing claims of one handoff: exactly one wins") { store in
            let (flow, session) = try await Fixture.handoff(in: store)
            let tokens = (0..<20).map { _ in Fixture.bytes() }
            let winners = try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
                for token in tokens {
                    group.addTask {
                        try await store.claimCrossPlatformSession(
                            handoffTokenHash: session.handoffTokenHash,
                            clientTokenHash: token,
                            at: Fixture.now + 1
                        )?.clientTokenHash
                    }
                }
                return try await group.reduce(into: [[UInt8]]()) { if let token = $1 { $0.append(token) } }
            }
            try require(winners.count == 1, "exactly one claim must win, not \(winners.count)")
            try require(
                try await store.flow(id: flow.id)?.clientTokenHash == winners.first,
                "the flow must hold the winner's token"
            )
        },
        StoreConformanceCheck("status moves by compare-and-set, and not once the session has expired") { store in
            let (_, session) = try await Fixture.handoff(in: store)
            let early = try await store.updateCrossPlatformSession(
                id: session.id,
                from: [.claimed],
                to: .confirmed,
                at: Fixture.now + 1
            )
            try require(early == nil, "a pending session must not be confirmed")
            _ = try await store.claimCrossPlatformSession(
                handoffTokenHash: session.handoffTokenHash,
                clientTokenHash: Fixture.bytes(),
                at: Fixture.now + 1
            )
            let confirmed = try await store.updateCrossPlatformSession(
                id: session.id,
                from: [.claimed],
                to: .confirmed,
                at: Fixture.now + 2
            )
            try require(confirmed?.status == .confirmed, "a claimed session must be confirmed")
            try require(confirmed?.updatedAt == Fixture.now + 2, "the update must set updatedAt")
            let late = try await store.updateCrossPlatformSession(
                id: session.id,
                from: [.confirmed],
                to: .rejected,
                at: session.expiresAt
            )
            try require(late == nil, "an expired session must not change")
            try require(
                try await store.crossPlatformSession(id: session.id)?.status == .confirmed,
                "it stays confirmed"
            )
            try require(
                try await store.updateCrossPlatformSession(id: session.id, from: [], to: .rejected, at: Fixture.now)
                    == nil,
                "no expected status matches nothing"
            )
        },
        StoreConformanceCheck("10 racing wrong codes with a limit of 3: three are counted, then it is rejected") {
            store in
            let (_, session) = try await Fixture.handoff(in: store)
            _ = try await store.claimCrossPlatformSession(
                handoffTokenHash: session.handoffTokenHash,
                clientTokenHash: Fixture.bytes(),
                at: Fixture.now + 1
            )
            let counted = try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await store.countCrossPlatformCodeFailure(id: session.id, rejectAt: 3, at: Fixture.now + 2)?
                            .codeFailures
                    }
                }
                return try await group.reduce(into: [Int]()) { if let count = $1 { $0.append(count) } }
            }
            try require(counted.sorted() == [1, 2, 3], "each counted failure must see its own count: \(counted)")
            let stored = try await store.crossPlatformSession(id: session.id)
            try require(stored?.status == .rejected, "the third wrong code must reject the session")
            try require(stored?.codeFailures == 3, "no failure is counted after the rejection")
        },
        StoreConformanceCheck("a handoff cancelled from any open status reads cancelled, and no one claims it then") {
            store in
            let (_, session) = try await Fixture.handoff(in: store)
            let cancelled = try await store.updateCrossPlatformSession(
                id: session.id,
                from: [.pending, .claimed, .confirmed],
                to: .cancelled,
                at: Fixture.now + 1
            )
            try require(
                cancelled?.status == .cancelled,
                "a pending session must be cancelled: \(String(describing: cancelled))"
            )
            try require(
                try await store.crossPlatformSession(id: session.id)?.status == .cancelled,
                "it must read back cancelled"
            )
            let claimed = try await store.claimCrossPlatformSession(
                handoffTokenHash: session.handoffTokenHash,
                clientTokenHash: Fixture.bytes(),
                at: Fixture.now + 2
            )
            try require(claimed == nil, "a cancelled session must not be claimed")
            try require(
                try await store.updateCrossPlatformSession(
                    id: session.id,
                    from: [.pending, .claimed, .confirmed],
                    to: .cancelled,
                    at: Fixture.now + 3
                ) == nil,
                "a cancelled session is no longer open"
            )
        },
        StoreConformanceCheck("a handoff goes with its flow's user") { store in
            let (flow, session) = try await Fixture.handoff(in: store)
            guard let userID = flow.userID else { return }
            try require(try await store.deleteUser(id: userID), "the user must be deleted")
            try require(try await store.crossPlatformSession(id: session.id) == nil, "the handoff must go with it")
        },
    ]
}
