import Foundation
import PasskeyStorage

// Purging is isolated (it deletes across the store); times are about `PurgeFixture.cut`, ten years before
// `Fixture.now`, so rows of other checks are not counted.
extension StoreConformance {
    static let purgedRegistrations: [StoreConformanceCheck] = [
        StoreConformanceCheck("a purged registration's id is kept as long again as it lived; old answers go") { store in
            let cut = PurgeFixture.cut
            let user = try await store.createUserIfAbsent(.fixture(createdAt: cut - 10_000))
            var registration = Fixture.flow(userID: user.id, expiresAt: cut - 100)
            registration.createdAt = cut - 700
            registration.updatedAt = cut - 700
            var signIn = Fixture.flow(userID: user.id, kind: .authentication, expiresAt: cut - 100)
            signIn.createdAt = cut - 700
            signIn.updatedAt = cut - 700
            try await store.createFlow(registration)
            try await store.createFlow(signIn)
            try await store.createCredentialForPurgeCheck(userID: user.id)
            try require(
                try await store.purgedRegistration(id: registration.id) == nil,
                "a registration that is still there was not purged"
            )
            let old = IdempotencyFixture.claim(at: cut - 86_500)
            _ = try await store.claimIdempotencyKey(old, at: cut - 86_500)
            let young = IdempotencyFixture.claim(at: cut - 100)
            _ = try await store.claimIdempotencyKey(young, at: cut - 100)

            let first = try await store.purge(before: cut, auditBefore: nil, limit: 100)
            try require(first == PurgeReport(flows: 2, idempotentAnswers: 1), "the first purge's report: \(first)")
            try require(
                try await store.purgedRegistration(id: registration.id) == cut,
                "the purged registration's id must be kept with the time of the purge"
            )
            try require(
                try await store.purgedRegistration(id: signIn.id) == nil,
                "only registrations' ids are kept"
            )
            var otherBody = young
            otherBody.requestHash = Fixture.bytes()
            try require(
                try await store.claimIdempotencyKey(otherBody, at: cut - 50) == .mismatch,
                "an answer that has not expired is kept"
            )
            // It lived 600 seconds: kept until 600 seconds after the purge.
            let kept = try await store.purge(before: cut + 600, auditBefore: nil, limit: 100)
            try require(kept.purgedRegistrationIDs == 0, "the id is kept as long as its attempt lived: \(kept)")
            let forgotten = try await store.purge(before: cut + 601, auditBefore: nil, limit: 100)
            try require(forgotten.purgedRegistrationIDs == 1, "then it is forgotten: \(forgotten)")
            try require(
                try await store.purgedRegistration(id: registration.id) == nil,
                "a forgotten id is no longer reported"
            )
        }
    ]
}

extension PasskeyStore {
    /// An active credential, so that purging the user's flows keeps the user.
    fileprivate func createCredentialForPurgeCheck(userID: String) async throws {
        let flow = Fixture.flow(userID: userID, expiresAt: Fixture.now + 86_400)
        try await createFlow(flow)
        try await insertCredential(
            Fixture.credential(userID: userID, flowID: flow.id),
            maximumActive: 10,
            flowID: flow.id,
            flowUpdate: FlowUpdate(status: .completed),
            at: PurgeFixture.cut - 10_000
        )
    }
}
