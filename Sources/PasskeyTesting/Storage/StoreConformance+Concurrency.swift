import Foundation
import PasskeyStorage

extension StoreConformance {
    /// Racing callers of one challenge or result (``FlowStore``).
    static let flowConcurrency: [StoreConformanceCheck] = [
        StoreConformanceCheck("50 concurrent consumers of one challenge: exactly one succeeds") { store in
            let challenge = Fixture.bytes()
            var flow = Fixture.flow(userID: nil, status: .optionsIssued)
            flow.challengeHash = challenge
            flow.challengeExpiresAt = Fixture.now + 60
            try await store.createFlow(flow)
            let flowID = flow.id
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        try await store.consumeChallenge(flowID: flowID, challengeHash: challenge, at: Fixture.now)
                            != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try require(winners == 1, "\(winners) consumers succeeded; exactly one may")
        },
        StoreConformanceCheck("50 concurrent redemptions of one result: exactly one succeeds") { store in
            let token = Fixture.bytes()
            var flow = Fixture.flow(userID: nil, kind: .authentication, status: .completed)
            flow.resultTokenHash = token
            flow.resultExpiresAt = Fixture.now + 60
            try await store.createFlow(flow)
            let flowID = flow.id
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        try await store.redeemResult(flowID: flowID, resultTokenHash: token, at: Fixture.now) != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try require(winners == 1, "\(winners) redemptions succeeded; exactly one may")
        },
    ]

    /// Racing registrations and settlements (``CeremonyStore``).
    static let registrationConcurrency: [StoreConformanceCheck] = [
        StoreConformanceCheck("20 concurrent registrations for one user never exceed the limit of 5") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id)
            try await store.createFlow(flow)
            let inserted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        do {
                            try await store.insertCredential(
                                Fixture.credential(userID: user.id, name: "Key \(index)"),
                                maximumActive: 5,
                                flowID: flow.id,
                                flowUpdate: FlowUpdate(),
                                at: Fixture.now
                            )
                            return true
                        } catch let error as StoreError where error.code == .limitReached {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try require(inserted == 5, "\(inserted) credentials were inserted; the limit is 5")
            try require(
                try await store.credentials(userID: user.id).count == 5,
                "the user must have exactly 5 credentials"
            )
        },
        StoreConformanceCheck(
            "an expired reservation claimed by 20 users and settled by its flow at once: exactly one wins"
        ) { store in
            let owner = try await store.createUserIfAbsent(Fixture.user())
            let oldFlow = Fixture.flow(userID: owner.id, status: .completed)
            try await store.createFlow(oldFlow)
            let id = Fixture.bytes()
            var reserved = Fixture.credential(
                userID: owner.id,
                status: .reserved,
                reservedUntil: Fixture.now + 60,
                flowID: oldFlow.id
            )
            reserved.id = id
            try await store.insertCredential(
                reserved,
                maximumActive: 10,
                flowID: oldFlow.id,
                flowUpdate: FlowUpdate(),
                at: Fixture.now
            )
            var claims: [(FlowRecord, CredentialRecordRow)] = []
            for _ in 0..<20 {
                let user = try await store.createUserIfAbsent(Fixture.user())
                let flow = Fixture.flow(userID: user.id, status: .verifying)
                try await store.createFlow(flow)
                var credential = Fixture.credential(userID: user.id, flowID: flow.id)
                credential.id = id
                claims.append((flow, credential))
            }
            // The old flow settles with a clock that lags behind, to which the reservation is still live.
            let winners = try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask {
                    let settled = try await store.settleReservation(
                        flowID: oldFlow.id,
                        finalize: true,
                        flowUpdate: FlowUpdate(status: .finalized),
                        at: Fixture.now + 30
                    )
                    return settled.map { _ in owner.id }
                }
                for (flow, credential) in claims {
                    group.addTask {
                        do {
                            try await store.insertCredential(
                                credential,
                                maximumActive: 10,
                                flowID: flow.id,
                                flowUpdate: FlowUpdate(status: .completed),
                                at: Fixture.now + 120
                            )
                            return credential.userID
                        } catch let error as StoreError where error.code == .credentialExists {
                            return nil
                        }
                    }
                }
                return try await group.compactMap { $0 }.reduce(into: [String]()) { $0.append($1) }
            }
            try require(winners.count == 1, "\(winners.count) of the settlement and the inserts succeeded; one may")
            let stored = try await store.credential(id: id)
            try require(
                stored?.userID == winners.first && stored?.status == .active,
                "the stored credential must be the winner's, active"
            )
        },
    ]
}
