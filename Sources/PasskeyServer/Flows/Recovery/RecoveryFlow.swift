import Foundation
import Logging
import PasskeyStorage
import WebAuthn

/// Flow 5 of DESIGN §3, the backend's part: account recovery on a new device is started, read, finalized (the
/// replacement becomes active and the old credentials are revoked by `recovery.revoke`) or cancelled.
struct RecoveryFlow: ServiceFlow {
    let context: FlowContext
    let identityVerification: IdentityVerificationFlow
    let registration: RegistrationFlow
    let authorization: ClientAuthorization
}

extension RecoveryFlow {
    /// Starts a recovery. `starter` records who started it: a backend's recovery is finalized only by the backend.
    func create(
        _ request: CreateRecoveryRequest,
        by caller: Caller,
        starter: RecoveryAttemptRecord.Starter = .backend
    ) async throws(APIError) -> CreateRecoveryResponse {
        guard configuration.recovery.enabled else { throw APIError.recoveryNotSupported }
        guard configuration.identityVerification.provider != .disabled else {
            throw APIError.recoveryNeedsIdentityVerification
        }
        try Validation.userID(request.userId)
        guard let user = try await storage({ try await store.user(id: request.userId) }) else {
            throw APIError.notFound("No user \(request.userId).")
        }
        let time = now()
        // Counted before the attempt exists, in the store, so racing requests on any process cannot all slip past.
        let window = try await storage {
            try await store.countLimitEvent(
                keyHash: Secrets.hash("recovery-attempts:" + user.id),
                window: TimeInterval(configuration.recovery.attemptWindow),
                at: time
            )
        }
        guard window.count <= configuration.recovery.maxAttemptsPerUser else {
            await audit(.recoveryRateLimited, by: caller, userID: user.id, subject: nil)
            throw APIError.recoveryRateLimited(retryAfter: max(1, Int(window.end.timeIntervalSince(time).rounded(.up))))
        }
        let token = Secrets.token(prefix: "pkrt_")
        let attempt = RecoveryAttemptRecord(
            id: Secrets.identifier(prefix: "rec_"),
            userID: user.id,
            tokenHash: Secrets.hash(token),
            status: .pending,
            createdAt: time,
            updatedAt: time,
            expiresAt: time.addingTimeInterval(TimeInterval(configuration.recovery.attemptLifetime)),
            startedBy: starter
        )
        do {
            try await store.createRecoveryAttempt(attempt)
        } catch  where error.code == .notFound {
            throw APIError.notFound("No user \(request.userId).")
        } catch {
            logger.error("a recovery attempt could not be stored", metadata: ["error": "\(error)"])
            throw error.code == .unavailable ? .storageUnavailable : .unexpected
        }
        await audit(.recoveryCreated, by: caller, userID: user.id, subject: attempt.id)
        return CreateRecoveryResponse(
            recoveryAttemptId: attempt.id,
            recoveryToken: token,
            attemptExpiresAt: attempt.expiresAt
        )
    }

    func status(id: String) async throws(APIError) -> RecoveryStatusResponse {
        let attempt = try await recoveryAttempt(id: id)
        let run = try await storage { try await store.workflowRun(flowID: attempt.id) }
        var status = attempt.status.rawValue
        var credential: CredentialResponse?
        if let replacement = try await replacementCredential(of: attempt) {
            credential = CredentialResponse(replacement, metadata: metadataBLOB)
            if attempt.status == .exchanged { status = "registered" }
        }
        if attempt.status != .finalized, attempt.status != .cancelled, attempt.expiresAt <= now() { status = "expired" }
        return RecoveryStatusResponse(
            recoveryAttemptId: attempt.id,
            userId: attempt.userID,
            status: status,
            createdAt: attempt.createdAt,
            attemptExpiresAt: attempt.expiresAt,
            workflowRunId: run?.id,
            identityVerification: run?.status.rawValue,
            faceMatch: run?.faceMatch?.rawValue,
            simulated: run != nil && isSimulatedIdentityVerification ? true : nil,
            credential: credential
        )
    }

    func finalize(id: String, by caller: Caller) async throws(APIError) -> FinalizeRecoveryResponse {
        let attempt = try await recoveryAttempt(id: id)
        try await refuseUnfinalizable(attempt)
        _ = try await verifiedRecoveryRun(attemptID: attempt.id)
        let revoke = configuration.recovery.revoke
        guard
            let finalized = try await storage({
                try await store.finalizeRecovery(attemptID: attempt.id, revoking: revoke, at: now())
            })
        else {
            // A racing finalize or cancel, or the attempt or reservation expiring meanwhile: say which.
            try await refuseUnfinalizable(try await recoveryAttempt(id: id))
            throw APIError.recoveryRegistrationExpired
        }
        let revokedIDs = finalized.revoked.map { Base64URL.encode($0.id) }
        await audit(
            .recoveryFinalized,
            by: caller,
            userID: attempt.userID,
            subject: attempt.id,
            details: [
                "credential": Base64URL.encode(finalized.credential.id), "revoke": revoke.rawValue,
                "revoked": revokedIDs.joined(separator: ","),
            ]
        )
        for credential in finalized.revoked {
            await audit(
                .credentialRevoked,
                by: caller,
                userID: attempt.userID,
                subject: Base64URL.encode(credential.id),
                details: ["recovery": attempt.id]
            )
        }
        return FinalizeRecoveryResponse(
            recoveryAttemptId: attempt.id,
            credential: CredentialResponse(finalized.credential, metadata: metadataBLOB),
            revokedCredentialIds: revokedIDs
        )
    }

    func cancel(id: String, by caller: Caller) async throws(APIError) -> RecoveryStatusResponse {
        let attempt = try await recoveryAttempt(id: id)
        guard try await storage({ try await store.cancelRecoveryAttempt(id: attempt.id, at: now()) }) != nil else {
            let current = try await recoveryAttempt(id: id)
            throw current.status == .cancelled
                ? APIError.recoveryAttemptCancelled
                : .recoveryAttemptConflict("This recovery was finalized already; it can no longer be cancelled.")
        }
        await audit(.recoveryCancelled, by: caller, userID: attempt.userID, subject: attempt.id)
        return try await status(id: id)
    }

    // MARK: Shared by the recovery endpoints

    /// The attempt with this id, or `NOT_FOUND`.
    func recoveryAttempt(id: String) async throws(APIError) -> RecoveryAttemptRecord {
        guard (1...128).contains(id.utf8.count),
            let attempt = try await storage({ try await store.recoveryAttempt(id: id) })
        else { throw APIError.notFound("No recovery attempt \(id).") }
        return attempt
    }

    /// The identity-verification run of the attempt, when it approved the person and matched their face; otherwise
    /// the code that says why the recovery cannot go on (yet).
    func verifiedRecoveryRun(attemptID: String) async throws(APIError) -> WorkflowRunRecord {
        guard let run = try await storage({ try await store.workflowRun(flowID: attemptID) }) else {
            throw APIError.recoveryIdentityVerificationNotCompleted
        }
        switch (run.status, run.faceMatch) {
        case (.pending, _), (.review, _): throw APIError.recoveryIdentityVerificationNotCompleted
        case (_, .fail): throw APIError.recoveryMatchFailed
        case (.declined, _): throw APIError.workflowDeclined
        case (.approved, nil): throw APIError.recoveryEvidenceUnavailable
        case (.approved, .pass): return run
        }
    }

    /// The replacement credential registered for the attempt, if any (reserved, or active once finalized).
    func replacementCredential(of attempt: RecoveryAttemptRecord) async throws(APIError) -> CredentialRecordRow? {
        guard let flowID = attempt.registrationFlowID,
            let flow = try await storage({ try await store.flow(id: flowID) })
        else { return nil }
        let state = try decodePayload(RegistrationState.self, from: flow)
        guard let id = state.credentialID, let bytes = try? Base64URL.decode(id),
            let row = try await storage({ try await store.credential(id: bytes) }), row.flowID == flowID
        else { return nil }
        return row
    }

    /// Refuses an attempt that cannot be finalized now, with the reason.
    private func refuseUnfinalizable(_ attempt: RecoveryAttemptRecord) async throws(APIError) {
        switch attempt.status {
        case .finalized: throw APIError.recoveryAttemptConflict("This recovery was finalized already.")
        case .cancelled: throw APIError.recoveryAttemptCancelled
        case .pending, .exchanged: break
        }
        guard attempt.expiresAt > now() else { throw APIError.recoveryAttemptExpired }
        guard let replacement = try await replacementCredential(of: attempt) else {
            throw APIError.recoveryAttemptConflict(
                "The replacement passkey is not registered yet: the new device completes it at POST /v1/client/recoveries/{recoveryAttemptId}/complete, then finalize."
            )
        }
        guard replacement.isLive(at: now()) else { throw APIError.recoveryRegistrationExpired }
    }
}
