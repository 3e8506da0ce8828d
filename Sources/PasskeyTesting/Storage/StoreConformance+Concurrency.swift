import Foundation
import PasskeyStorage

extension StoreConformance {
    static let concurrency: [StoreConformanceCheck] = [
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
    ]
}
