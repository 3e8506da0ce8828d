import Foundation
import PasskeyStorage

extension StoreConformance {
    static let flows: [StoreConformanceCheck] = [
        StoreConformanceCheck("a flow round-trips, and its id is unique") { store in
            var flow = Fixture.flow(userID: nil, kind: .authentication)
            flow.challengeHash = Fixture.bytes()
            flow.challengeExpiresAt = Fixture.now + 30
            flow.resultTokenHash = Fixture.bytes()
            flow.resultExpiresAt = Fixture.now + 60
            try await store.createFlow(flow)
            try require(try await store.flow(id: flow.id) == flow, "stored flow differs")
            try await requireStoreError(.duplicate) { try await store.createFlow(flow) }
            try require(try await store.flow(id: Fixture.id("missing")) == nil, "unknown flow must be nil")
        },
        StoreConformanceCheck("updateFlow applies only in an expected status and before expiry") { store in
            let flow = Fixture.flow(userID: nil)
            try await store.createFlow(flow)
            let challenge = Fixture.bytes()
            try require(
                try await store.updateFlow(
                    id: flow.id,
                    expectedStatuses: [.completed],
                    at: Fixture.now,
                    update: FlowUpdate(status: .aborted)
                ) == nil,
                "wrong status must not update"
            )
            try require(
                try await store.updateFlow(
                    id: flow.id,
                    expectedStatuses: [.created],
                    at: Fixture.now + 121,
                    update: FlowUpdate(status: .aborted)
                ) == nil,
                "an expired flow must not update"
            )
            let updated = try await store.updateFlow(
                id: flow.id,
                expectedStatuses: [.created, .optionsIssued],
                at: Fixture.now + 1,
                update: FlowUpdate(
                    status: .optionsIssued,
                    challengeHash: challenge,
                    challengeExpiresAt: Fixture.now + 60,
                    payload: [9]
                )
            )
            try require(
                updated?.status == .optionsIssued && updated?.challengeHash == challenge && updated?.payload == [9]
                    && updated?.updatedAt == Fixture.now + 1,
                "update not applied"
            )
            try require(try await store.flow(id: flow.id) == updated, "update not stored")
            let cleared = try await store.updateFlow(
                id: flow.id,
                expectedStatuses: [.optionsIssued],
                at: Fixture.now + 2,
                update: FlowUpdate(clearChallenge: true)
            )
            try require(
                cleared?.challengeHash == nil && cleared?.challengeExpiresAt == nil && cleared?.payload == [9],
                "clearChallenge must clear only the challenge"
            )
        },
        StoreConformanceCheck("a challenge is consumed once, only with its hash, only before it expires") { store in
            let challenge = Fixture.bytes()
            var flow = Fixture.flow(userID: nil, status: .optionsIssued)
            flow.challengeHash = challenge
            flow.challengeExpiresAt = Fixture.now + 60
            try await store.createFlow(flow)
            try require(
                try await store.consumeChallenge(flowID: flow.id, challengeHash: Fixture.bytes(), at: Fixture.now)
                    == nil,
                "a wrong hash must not consume"
            )
            try require(
                try await store.consumeChallenge(flowID: flow.id, challengeHash: challenge, at: Fixture.now + 61)
                    == nil,
                "an expired challenge must not be consumed"
            )
            let consumed = try await store.consumeChallenge(
                flowID: flow.id,
                challengeHash: challenge,
                at: Fixture.now + 1
            )
            try require(consumed?.status == .optionsIssued, "consume must return the flow as it was")
            let after = try await store.flow(id: flow.id)
            try require(
                after?.status == .verifying && after?.challengeHash == nil,
                "consume must clear the challenge and mark the flow verifying"
            )
            try require(
                try await store.consumeChallenge(flowID: flow.id, challengeHash: challenge, at: Fixture.now + 2) == nil,
                "a challenge is single-use"
            )
        },
        StoreConformanceCheck("a result token is redeemed once, before it expires") { store in
            let token = Fixture.bytes()
            var flow = Fixture.flow(userID: nil, kind: .authentication, status: .completed)
            flow.resultTokenHash = token
            flow.resultExpiresAt = Fixture.now + 60
            try await store.createFlow(flow)
            try require(
                try await store.redeemResult(flowID: flow.id, resultTokenHash: Fixture.bytes(), at: Fixture.now) == nil,
                "a wrong token must not redeem"
            )
            try require(
                try await store.redeemResult(flowID: flow.id, resultTokenHash: token, at: Fixture.now + 61) == nil,
                "an expired token must not redeem"
            )
            try require(
                try await store.redeemResult(flowID: flow.id, resultTokenHash: token, at: Fixture.now + 1)?.status
                    == .completed,
                "redeem must return the flow as it was"
            )
            try require(try await store.flow(id: flow.id)?.status == .redeemed, "redeem must mark the flow redeemed")
            try require(
                try await store.redeemResult(flowID: flow.id, resultTokenHash: token, at: Fixture.now + 2) == nil,
                "a result is redeemed once"
            )
        },
    ]
}
