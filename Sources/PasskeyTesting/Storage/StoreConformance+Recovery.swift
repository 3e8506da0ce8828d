import Foundation
public import PasskeyStorage

extension StoreConformance {
    static let recovery: [StoreConformanceCheck] = [
        StoreConformanceCheck("a recovery attempt round-trips; a known id or a missing user is refused") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let attempt = Fixture.recoveryAttempt(userID: user.id)
            try await store.createRecoveryAttempt(attempt)
            try require(
                try await store.recoveryAttempt(id: attempt.id) == attempt,
                "the attempt must read back as stored"
            )
            try await requireStoreError(.duplicate) { try await store.createRecoveryAttempt(attempt) }
            try await requireStoreError(.notFound) {
                try await store.createRecoveryAttempt(Fixture.recoveryAttempt(userID: Fixture.id("nobody")))
            }
            try require(try await store.recoveryAttempt(id: Fixture.id("rec")) == nil, "an unknown id reads nil")
        },
        StoreConformanceCheck("a recovery token is exchanged once, only with its hash and before expiry") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let attempt = Fixture.recoveryAttempt(userID: user.id)
            try await store.createRecoveryAttempt(attempt)
            let flow = Fixture.flow(userID: user.id, kind: .recoveryRegistration)
            try require(
                try await store.exchangeRecoveryToken(
                    attemptID: attempt.id,
                    tokenHash: Fixture.bytes(),
                    registrationFlow: flow,
                    at: Fixture.now
                ) == nil,
                "a wrong token must not be exchanged"
            )
            try require(
                try await store.exchangeRecoveryToken(
                    attemptID: attempt.id,
                    tokenHash: attempt.tokenHash,
                    registrationFlow: flow,
                    at: attempt.expiresAt
                ) == nil,
                "an expired attempt must not be exchanged"
            )
            try require(try await store.flow(id: flow.id) == nil, "a refused exchange must insert no flow")
            let exchanged = try await store.exchangeRecoveryToken(
                attemptID: attempt.id,
                tokenHash: attempt.tokenHash,
                registrationFlow: flow,
                at: Fixture.now + 1
            )
            try require(
                exchanged?.status == .exchanged && exchanged?.registrationFlowID == flow.id
                    && exchanged?.updatedAt == Fixture.now + 1,
                "the exchange must name the flow: \(String(describing: exchanged))"
            )
            try require(try await store.flow(id: flow.id) == flow, "the exchange must insert the flow")
            try require(
                try await store.exchangeRecoveryToken(
                    attemptID: attempt.id,
                    tokenHash: attempt.tokenHash,
                    registrationFlow: Fixture.flow(userID: user.id, kind: .recoveryRegistration),
                    at: Fixture.now + 2
                ) == nil,
                "a token must not be exchanged twice"
            )
        },
        StoreConformanceCheck("20 concurrent exchanges of one recovery token: exactly one wins") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let attempt = Fixture.recoveryAttempt(userID: user.id)
            try await store.createRecoveryAttempt(attempt)
            let flows = (0..<20).map { _ in Fixture.flow(userID: user.id, kind: .recoveryRegistration) }
            let winners = try await withThrowingTaskGroup(of: String?.self) { group in
                for flow in flows {
                    group.addTask {
                        try await store.exchangeRecoveryToken(
                            attemptID: attempt.id,
                            tokenHash: attempt.tokenHash,
                            registrationFlow: flow,
                            at: Fixture.now
                        )?.registrationFlowID
                    }
                }
                return try await group.reduce(into: [String]()) { if let id = $1 { $0.append(id) } }
            }
            try require(winners.count == 1, "\(winners.count) exchanges succeeded; exactly one may")
            var stored: [String] = []
            for flow in flows where try await store.flow(id: flow.id) != nil { stored.append(flow.id) }
            try require(stored == winners, "only the winner's flow may be stored, found \(stored.count)")
        },
        StoreConformanceCheck("finalizing a recovery activates the replacement and revokes the rest, at once") {
            store in
            let fixture = try await RecoveryFixture.exchanged(in: store)
            let finalized = try await store.finalizeRecovery(
                attemptID: fixture.attempt.id,
                revoking: .all,
                at: Fixture.now
            )
            try require(finalized?.attempt.status == .finalized, "the attempt must be finalized")
            try require(
                finalized?.credential.id == fixture.replacement.id && finalized?.credential.status == .active
                    && finalized?.credential.reservedUntil == nil,
                "the replacement must be returned active"
            )
            try require(
                finalized?.revoked.map(\.id) == fixture.old.map(\.id).sorted { $0.lexicographicallyPrecedes($1) }
                    && finalized?.revoked.allSatisfy({ $0.status == .revoked && $0.revokedAt == Fixture.now }) == true,
                "both old credentials must be revoked, in the byte order of their ids"
            )
            try require(
                try await store.credentials(userID: fixture.user.id).map(\.id) == [fixture.replacement.id],
                "only the replacement may be left"
            )
            try require(
                try await store.webSessions(userID: fixture.user.id, at: Fixture.now).isEmpty,
                "the user's web sessions must be ended"
            )
            try require(
                try await store.flow(id: fixture.signIn.id)?.status == .aborted,
                "the user's unredeemed sign-in result must be aborted"
            )
            try require(
                try await store.flow(id: fixture.flow.id)?.status == .finalized,
                "the replacement registration's flow must be finalized"
            )
            try require(
                try await store.recoveryAttempt(id: fixture.attempt.id)?.status == .finalized,
                "the attempt must be stored finalized"
            )
            try require(
                try await store.finalizeRecovery(attemptID: fixture.attempt.id, revoking: .all, at: Fixture.now) == nil,
                "a recovery must not be finalized twice"
            )
            try require(
                try await store.cancelRecoveryAttempt(id: fixture.attempt.id, at: Fixture.now) == nil,
                "a finalized recovery must not be cancelled"
            )
        },
        StoreConformanceCheck("finalizing with deviceBound revokes only credentials that cannot be backed up") {
            store in
            let fixture = try await RecoveryFixture.exchanged(in: store, oldBackupEligible: [true, false])
            let finalized = try await store.finalizeRecovery(
                attemptID: fixture.attempt.id,
                revoking: .deviceBound,
                at: Fixture.now
            )
            try require(finalized?.revoked.map(\.id) == [fixture.old[1].id], "only the device-bound one may be revoked")
            try require(
                try await store.credential(id: fixture.old[0].id)?.status == .active,
                "the synced credential must stay active"
            )
        },
        StoreConformanceCheck("finalizing with none revokes nothing") { store in
            let fixture = try await RecoveryFixture.exchanged(in: store)
            let finalized = try await store.finalizeRecovery(
                attemptID: fixture.attempt.id,
                revoking: .none,
                at: Fixture.now
            )
            try require(finalized?.revoked == [], "nothing may be revoked")
            try require(
                try await store.credentials(userID: fixture.user.id).count == 3,
                "the user must keep both old credentials beside the replacement"
            )
        },
        StoreConformanceCheck("finalizing needs an exchanged, live attempt with a live reservation") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let pending = Fixture.recoveryAttempt(userID: user.id)
            try await store.createRecoveryAttempt(pending)
            try require(
                try await store.finalizeRecovery(attemptID: pending.id, revoking: .all, at: Fixture.now) == nil,
                "a pending attempt must not be finalized"
            )
            let expired = try await RecoveryFixture.exchanged(in: store)
            try require(
                try await store.finalizeRecovery(
                    attemptID: expired.attempt.id,
                    revoking: .all,
                    at: expired.attempt.expiresAt
                ) == nil,
                "an expired attempt must not be finalized"
            )
            let unregistered = try await RecoveryFixture.exchanged(in: store, register: false)
            try require(
                try await store.finalizeRecovery(attemptID: unregistered.attempt.id, revoking: .all, at: Fixture.now)
                    == nil,
                "an attempt without a registered replacement must not be finalized"
            )
            try require(
                try await store.credentials(userID: unregistered.user.id).count == 2,
                "a refused finalize must revoke nothing"
            )
            try require(
                try await store.finalizeRecovery(attemptID: Fixture.id("rec"), revoking: .all, at: Fixture.now) == nil,
                "an unknown attempt must not be finalized"
            )
        },
        StoreConformanceCheck("cancelling a recovery deletes its reservation; it cannot be finalized after") { store in
            let fixture = try await RecoveryFixture.exchanged(in: store)
            let cancelled = try await store.cancelRecoveryAttempt(id: fixture.attempt.id, at: Fixture.now)
            try require(cancelled?.status == .cancelled, "the attempt must be cancelled")
            try require(
                try await store.credential(id: fixture.replacement.id) == nil,
                "the reserved replacement must be deleted"
            )
            try require(try await store.flow(id: fixture.flow.id)?.status == .aborted, "its flow must be aborted")
            try require(
                try await store.finalizeRecovery(attemptID: fixture.attempt.id, revoking: .all, at: Fixture.now) == nil,
                "a cancelled attempt must not be finalized"
            )
            try require(
                try await store.cancelRecoveryAttempt(id: fixture.attempt.id, at: Fixture.now) == nil,
                "an attempt is cancelled once"
            )
            try require(
                try await store.credentials(userID: fixture.user.id).count == 2,
                "the old credentials must stay"
            )
        },
        StoreConformanceCheck("a finalize racing a cancel of one recovery, 10 times: exactly one wins") { store in
            for _ in 0..<10 {
                let fixture = try await RecoveryFixture.exchanged(in: store)
                let id = fixture.attempt.id
                async let finalized = store.finalizeRecovery(attemptID: id, revoking: .all, at: Fixture.now)
                async let cancelled = store.cancelRecoveryAttempt(id: id, at: Fixture.now)
                let (finalize, cancel) = try await (finalized, cancelled)
                try require((finalize == nil) != (cancel == nil), "exactly one of finalize and cancel may succeed")
                let replacement = try await store.credential(id: fixture.replacement.id)
                let left = try await store.credentials(userID: fixture.user.id).count
                if finalize != nil {
                    try require(
                        replacement?.status == .active && left == 1,
                        "a won finalize must leave the replacement"
                    )
                } else {
                    try require(replacement == nil && left == 2, "a won cancel must leave the old credentials")
                }
            }
        },
        StoreConformanceCheck("deleting a user deletes their recovery attempts") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let attempt = Fixture.recoveryAttempt(userID: user.id)
            try await store.createRecoveryAttempt(attempt)
            _ = try await store.deleteUser(id: user.id)
            try require(
                try await store.recoveryAttempt(id: attempt.id) == nil,
                "the attempt must be gone with its user"
            )
        },
    ]
}

extension StoreConformance {
    /// Purging recovery attempts: an isolated check (see ``StoreConformance/isolatedChecks``).
    static let recoveryPurge: [StoreConformanceCheck] = [
        StoreConformanceCheck("purging deletes recovery attempts that expired before the audit retention only") {
            store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let live = Fixture.recoveryAttempt(userID: user.id)
            var old = Fixture.recoveryAttempt(userID: user.id)
            old.status = .finalized
            old.expiresAt = Fixture.now - 7200
            try await store.createRecoveryAttempt(live)
            try await store.createRecoveryAttempt(old)
            let kept = try await store.purge(before: Fixture.now, auditBefore: nil, limit: 10)
            try require(kept.recoveryAttempts == 0, "without an audit retention nothing is purged: \(kept)")
            let purged = try await store.purge(before: Fixture.now, auditBefore: Fixture.now - 3600, limit: 10)
            try require(purged == PurgeReport(recoveryAttempts: 1), "one attempt is over: \(purged)")
            try require(try await store.recoveryAttempt(id: old.id) == nil, "the old attempt must be gone")
            try require(try await store.recoveryAttempt(id: live.id) == live, "the live attempt must stay")
        }
    ]
}

extension Fixture {
    static func recoveryAttempt(userID: String) -> RecoveryAttemptRecord {
        RecoveryAttemptRecord(
            id: id("rec"),
            userID: userID,
            tokenHash: bytes(),
            status: .pending,
            createdAt: now,
            updatedAt: now,
            expiresAt: now + 900
        )
    }
}

/// A user with two old credentials, a web session and a completed sign-in awaiting redemption, and a recovery
/// attempt whose token was exchanged and whose replacement is reserved (unless `register` is false).
public struct RecoveryFixture: Sendable {
    public let user: UserRecord
    public let old: [CredentialRecordRow]
    public let attempt: RecoveryAttemptRecord
    public let flow: FlowRecord
    public let replacement: CredentialRecordRow
    public let signIn: FlowRecord

    public static func exchanged(
        in store: any PasskeyStore,
        oldBackupEligible: [Bool] = [true, false],
        register: Bool = true
    ) async throws -> Self {
        let user = try await store.createUserIfAbsent(Fixture.user())
        let setUp = Fixture.flow(userID: user.id, status: .completed)
        try await store.createFlow(setUp)
        var old: [CredentialRecordRow] = []
        for (index, backupEligible) in oldBackupEligible.enumerated() {
            var credential = Fixture.credential(userID: user.id, name: "Lost \(index)", flowID: setUp.id)
            credential.backupEligible = backupEligible
            try await store.insertCredential(
                credential,
                maximumActive: 10,
                flowID: setUp.id,
                flowUpdate: FlowUpdate(),
                at: Fixture.now
            )
            old.append(credential)
        }
        try await store.createWebSession(Fixture.webSession(userID: user.id, credentialID: old[0].id))
        var signIn = Fixture.flow(userID: user.id, kind: .authentication, status: .completed)
        signIn.resultTokenHash = Fixture.bytes()
        signIn.resultExpiresAt = Fixture.now + 60
        try await store.createFlow(signIn)
        var attempt = Fixture.recoveryAttempt(userID: user.id)
        try await store.createRecoveryAttempt(attempt)
        let flow = Fixture.flow(userID: user.id, kind: .recoveryRegistration)
        guard
            let exchanged = try await store.exchangeRecoveryToken(
                attemptID: attempt.id,
                tokenHash: attempt.tokenHash,
                registrationFlow: flow,
                at: Fixture.now
            )
        else { throw StoreConformanceFailure(description: "the recovery token could not be exchanged") }
        attempt = exchanged
        let replacement = Fixture.credential(
            userID: user.id,
            name: "New phone",
            status: .reserved,
            reservedUntil: Fixture.now + 600,
            flowID: flow.id
        )
        if register {
            try await store.insertCredential(
                replacement,
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(status: .completed),
                at: Fixture.now
            )
        }
        return Self(user: user, old: old, attempt: attempt, flow: flow, replacement: replacement, signIn: signIn)
    }
}
