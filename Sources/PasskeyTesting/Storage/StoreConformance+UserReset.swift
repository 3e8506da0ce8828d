import Foundation
import PasskeyStorage

/// A user's reset ends every in-flight flow of theirs in the same transaction (see ``PasskeyStore``): checked for
/// each operation that resets a user.
extension StoreConformance {
    static let userReset: [StoreConformanceCheck] = [
        StoreConformanceCheck("revoking a credential ends the user's in-flight flows") { store in
            let fixture = try await UserResetFixture.make(in: store)
            _ = try await store.revokeCredential(id: fixture.credential.id, at: Fixture.now + 1)
            try await fixture.requireEnded(in: store)
        },
        StoreConformanceCheck("signing a user out everywhere ends their in-flight flows") { store in
            let fixture = try await UserResetFixture.make(in: store)
            _ = try await store.signOutEverywhere(userID: fixture.user.id, at: Fixture.now + 1)
            try await fixture.requireEnded(in: store)
        },
        StoreConformanceCheck("finalizing a recovery ends the user's in-flight flows and other attempts") { store in
            let recovery = try await RecoveryFixture.exchanged(in: store)
            let fixture = try await UserResetFixture.make(in: store, user: recovery.user)
            try require(
                try await store.finalizeRecovery(attemptID: recovery.attempt.id, revoking: .none, at: Fixture.now + 1)
                    != nil,
                "the recovery must be finalized"
            )
            try await fixture.requireEnded(in: store)
            try require(
                try await store.credential(id: recovery.replacement.id)?.status == .active,
                "the finalized recovery's replacement must stay active"
            )
        },
        StoreConformanceCheck("deleting a user leaves no flow of theirs that could complete") { store in
            let fixture = try await UserResetFixture.make(in: store)
            _ = try await store.deleteUser(id: fixture.user.id)
            do {
                try await store.insertCredential(
                    Fixture.credential(userID: fixture.user.id, name: "Thief"),
                    maximumActive: 10,
                    flowID: fixture.registration.id,
                    flowUpdate: FlowUpdate(status: .completed),
                    at: Fixture.now + 2
                )
                throw StoreConformanceFailure(description: "a deleted user's registration must not complete")
            } catch let error as StoreError {
                try require(error.code == .notFound, "expected NOT_FOUND, got \(error)")
            }
        },
        StoreConformanceCheck("a reset leaves other users' flows alone") { store in
            let fixture = try await UserResetFixture.make(in: store)
            let bystander = try await UserResetFixture.make(in: store)
            _ = try await store.signOutEverywhere(userID: fixture.user.id, at: Fixture.now + 1)
            let registration = try await store.flow(id: bystander.registration.id)
            let handoff = try await store.crossPlatformSession(id: bystander.handoff.id)
            let attempt = try await store.recoveryAttempt(id: bystander.attempt.id)
            let families = try await store.refreshTokenFamilies(userID: bystander.user.id)
            try require(
                registration?.status == .optionsIssued && handoff?.status == .pending && attempt?.status == .pending
                    && families.map(\.revokedAt) == [nil],
                "another user's flows and token sessions must stay as they were"
            )
        },
    ]
}

/// A user with an active credential and one flow of each kind in flight: a registration awaiting its response, an
/// explicit registration whose credential is reserved, a sign-in being verified, a sign-in whose result awaits
/// redemption, a handed-off sign-in with its pending handoff, and a pending recovery attempt.
struct UserResetFixture {
    let user: UserRecord
    let credential: CredentialRecordRow
    let registration: FlowRecord
    let reservedFlow: FlowRecord
    let reserved: CredentialRecordRow
    let verifying: FlowRecord
    let completed: FlowRecord
    let handoff: CrossPlatformSessionRecord
    let attempt: RecoveryAttemptRecord
    let session: TokenSessionFixture

    static func make(in store: any PasskeyStore, user existing: UserRecord? = nil) async throws -> Self {
        var user = existing ?? Fixture.user()
        if existing == nil { user = try await store.createUserIfAbsent(user) }
        let setUp = Fixture.flow(userID: user.id, status: .completed)
        try await store.createFlow(setUp)
        let credential = Fixture.credential(userID: user.id, name: Fixture.id("key"), flowID: setUp.id)
        try await store.insertCredential(
            credential,
            maximumActive: 100,
            flowID: setUp.id,
            flowUpdate: FlowUpdate(),
            at: Fixture.now
        )
        var registration = Fixture.flow(userID: user.id, status: .optionsIssued)
        registration.challengeHash = Fixture.bytes()
        registration.challengeExpiresAt = Fixture.now + 120
        try await store.createFlow(registration)
        let reservedFlow = Fixture.flow(userID: user.id)
        try await store.createFlow(reservedFlow)
        let reserved = Fixture.credential(
            userID: user.id,
            name: Fixture.id("reserved"),
            status: .reserved,
            reservedUntil: Fixture.now + 600,
            flowID: reservedFlow.id
        )
        try await store.insertCredential(
            reserved,
            maximumActive: 100,
            flowID: reservedFlow.id,
            flowUpdate: FlowUpdate(status: .completed),
            at: Fixture.now
        )
        let verifying = Fixture.flow(userID: user.id, kind: .authentication, status: .verifying)
        try await store.createFlow(verifying)
        var completed = Fixture.flow(userID: user.id, kind: .authentication, status: .completed)
        completed.resultTokenHash = Fixture.bytes()
        completed.resultExpiresAt = Fixture.now + 60
        try await store.createFlow(completed)
        let handedOff = Fixture.flow(userID: user.id, kind: .authentication)
        try await store.createFlow(handedOff)
        let handoff = Fixture.crossPlatformSession(flowID: handedOff.id)
        try require(
            try await store.createCrossPlatformSession(handoff, flowPayload: Fixture.handedOffPayload, at: Fixture.now),
            "the sign-in must be handed off"
        )
        let attempt = Fixture.recoveryAttempt(userID: user.id)
        try await store.createRecoveryAttempt(attempt)
        let session = try await TokenSessionFixture.make(in: store, user: user)
        return Self(
            user: user,
            credential: credential,
            registration: registration,
            reservedFlow: reservedFlow,
            reserved: reserved,
            verifying: verifying,
            completed: completed,
            handoff: handoff,
            attempt: attempt,
            session: session
        )
    }

    /// Every flow of the fixture was ended by a reset: none can go on, and the registration cannot complete.
    func requireEnded(in store: any PasskeyStore) async throws {
        for flow in [registration, reservedFlow, verifying, completed] {
            let current = try await store.flow(id: flow.id)
            try require(
                current?.status == .aborted,
                "flow \(flow.id) must be aborted, is \(String(describing: current))"
            )
        }
        try require(
            try await store.consumeChallenge(
                flowID: registration.id,
                challengeHash: registration.challengeHash ?? [],
                at: Fixture.now + 2
            ) == nil,
            "an ended registration's challenge must not be consumed"
        )
        try require(
            try await store.redeemResult(
                flowID: completed.id,
                resultTokenHash: completed.resultTokenHash ?? [],
                at: Fixture.now + 2
            ) == nil,
            "an ended sign-in's result must not be redeemed"
        )
        try require(
            try await store.credential(id: reserved.id) == nil,
            "a credential reserved by a flow in flight must be released"
        )
        try require(
            try await store.settleReservation(
                flowID: reservedFlow.id,
                finalize: true,
                flowUpdate: FlowUpdate(status: .finalized),
                at: Fixture.now + 2
            ) == nil,
            "an ended registration's reservation must not be finalized"
        )
        let handoff = try await store.crossPlatformSession(id: handoff.id)
        try require(handoff?.status == .rejected, "the handoff must end, is \(String(describing: handoff?.status))")
        try require(
            try await store.claimCrossPlatformSession(
                handoffTokenHash: self.handoff.handoffTokenHash,
                clientTokenHash: Fixture.bytes(),
                at: Fixture.now + 2
            ) == nil,
            "an ended handoff must not be claimed"
        )
        let attempt = try await store.recoveryAttempt(id: attempt.id)
        try require(attempt?.status == .cancelled, "the open recovery attempt must be cancelled")
        let families = try await store.refreshTokenFamilies(userID: user.id)
        try require(
            families.map(\.revocation) == [.reset] && families.first?.revokedAt == Fixture.now + 1,
            "the user's token session must be revoked by the reset: \(families)"
        )
        let rotation = try await store.rotateRefreshToken(
            hash: session.tokenHash,
            nextHash: Fixture.bytes(),
            nextExpiresAt: Fixture.now + 600,
            at: Fixture.now + 2
        )
        guard case .revoked = rotation else {
            throw StoreConformanceFailure(description: "a reset user's refresh token must not rotate: \(rotation)")
        }
        let thief = Fixture.credential(userID: user.id, name: Fixture.id("thief"))
        do {
            try await store.insertCredential(
                thief,
                maximumActive: 100,
                flowID: registration.id,
                flowUpdate: FlowUpdate(status: .completed),
                at: Fixture.now + 2
            )
            throw StoreConformanceFailure(description: "an ended registration must not insert a credential")
        } catch let error as StoreError {
            try require(error.code == .flowEnded, "expected FLOW_ENDED, got \(error)")
        }
        try require(try await store.credential(id: thief.id) == nil, "no credential may be left by the refusal")
    }
}
