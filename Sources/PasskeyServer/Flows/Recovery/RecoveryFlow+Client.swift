import Foundation
import HTTPTypes
import PasskeyStorage
import WebAuthn

/// Flow 5 of DESIGN §3, the new device's part: it proves the person's identity with the recovery token, exchanges
/// the token (once) for the replacement registration data, and completes the replacement passkey, which stays
/// reserved until the backend finalizes the recovery.
extension RecoveryFlow {
    /// `POST /biometric-passkey/mobile/recovery/{recoveryAttemptId}/idv/start`, with the recovery token as bearer.
    func startIdentityVerification(
        for attempt: RecoveryAttemptRecord,
        by caller: Caller
    ) async throws(APIError) -> WorkflowRunStart {
        try refuseUnexchangeable(attempt)
        return try await identityVerification.startWorkflowRun(
            purpose: .recovery,
            userID: attempt.userID,
            flowID: attempt.id,
            by: caller
        )
    }

    /// `POST /v1/client/recoveries/{recoveryAttemptId}/registration`: exchanges the recovery token, once the person's
    /// identity is verified, for the replacement registration data.
    func exchange(
        id attemptID: String,
        request: RecoveryRegistrationRequest,
        by caller: Caller
    ) async throws(APIError) -> RecoveryRegistrationResponse {
        let attempt = try await authorization.recoveryAttempt(id: attemptID, token: request.recoveryToken)
        try refuseUnexchangeable(attempt)
        let run = try await verifiedRecoveryRun(attemptID: attempt.id)
        guard let user = try await storage({ try await store.user(id: attempt.userID) }) else {
            throw APIError.recoveryTokenInvalid
        }
        let time = now()
        let continuationToken = Secrets.token(prefix: "pkc_")
        let flow = FlowRecord(
            id: Secrets.identifier(prefix: "reg_"),
            kind: .recoveryRegistration,
            status: .created,
            userID: user.id,
            clientTokenHash: Secrets.hash(continuationToken),
            expiresAt: min(expiry(configuration.expiries.registrationAttempt), attempt.expiresAt),
            createdAt: time,
            updatedAt: time,
            payload: try Self.encodePayload(
                RegistrationState(
                    userName: user.name,
                    displayName: user.displayName,
                    explicitFinalize: true,
                    // The old credentials stay live until the finalize revokes them: they do not count here.
                    maximumActive: configuration.recovery.revoke == .all
                        ? Int.max : configuration.policy.maxCredentialsPerUser,
                    workflowRunID: run.id
                )
            )
        )
        guard
            try await storage({
                try await store.exchangeRecoveryToken(
                    attemptID: attempt.id,
                    tokenHash: attempt.tokenHash,
                    registrationFlow: flow,
                    at: time
                )
            }) != nil
        else {
            // Another exchange won, or the attempt was cancelled or expired meanwhile.
            try refuseUnexchangeable(
                try await authorization.recoveryAttempt(id: attemptID, token: request.recoveryToken)
            )
            throw APIError.recoveryTokenInvalid
        }
        let options = try await registration.options(for: flow).publicKey
        let issued = try await storage { try await store.flow(id: flow.id) }
        await audit(
            .recoveryExchanged,
            by: caller,
            userID: user.id,
            subject: attempt.id,
            details: ["flow": flow.id, "workflowRunId": run.id]
        )
        return RecoveryRegistrationResponse(
            recoveryAttemptId: attempt.id,
            challenge: Base64URL.encode(options.challenge.bytes),
            userHandle: Base64URL.encode(user.handle),
            rpId: configuration.rpId,
            userId: user.id,
            registrationExpiresAt: issued?.challengeExpiresAt ?? flow.expiresAt,
            attemptExpiresAt: attempt.expiresAt,
            continuationToken: continuationToken,
            publicKey: options
        )
    }

    /// `POST /v1/client/recoveries/{recoveryAttemptId}/complete`: verifies the replacement passkey and reserves it
    /// for the finalize.
    func complete(
        id attemptID: String,
        request: CompleteRecoveryRequest,
        by caller: Caller
    ) async throws(APIError) -> CredentialResponse {
        // The continuation token first: without it, an unknown attempt and every state look alike, so the answer
        // tells a caller who does not hold it nothing about the attempt.
        let (attempt, flow) = try await authorization.recoveryContinuation(
            attemptID: attemptID,
            token: request.continuationToken
        )
        switch attempt.status {
        case .cancelled: throw APIError.recoveryAttemptCancelled
        case .finalized: throw APIError.recoveryAttemptConflict("This recovery was finalized already.")
        case .pending: throw APIError.recoveryNotExchanged
        case .exchanged: break
        }
        guard attempt.expiresAt > now() else { throw APIError.recoveryAttemptExpired }
        guard flow.expiresAt > now() else { throw APIError.recoveryRegistrationExpired }
        // The registration data carry one challenge: after a response that did not verify there is no other.
        switch flow.status {
        case .failed:
            throw APIError.recoveryRegistrationSpent
        case .completed, .finalized:
            throw APIError.recoveryAttemptConflict("The replacement passkey of this recovery is registered already.")
        default:
            break
        }
        let response = try request.credential.get()
        let credential: CredentialResponse
        do {
            credential = try await registration.complete(
                flow,
                request: CompleteRegistrationRequest(credential: response, name: request.name),
                by: caller
            )
        } catch {
            let mapped = Self.recoveryError(for: error)
            await audit(
                .recoveryRegistrationFailed,
                by: caller,
                userID: attempt.userID,
                subject: attempt.id,
                details: ["code": mapped.code.rawValue, "reason": error.code.rawValue]
            )
            throw mapped
        }
        await audit(
            .recoveryRegistered,
            by: caller,
            userID: attempt.userID,
            subject: attempt.id,
            details: ["credential": credential.credentialId]
        )
        return credential
    }

    /// The attempt the recovery page may finalize: its replacement was registered with this continuation token, and
    /// an operator started it (a backend's recovery is finalized by the backend: `RECOVERY_FINALIZE_BY_BACKEND`).
    /// Anything else — an unknown attempt included — looks alike (`RECOVERY_TOKEN_INVALID`).
    func attemptFinalizableByDevice(
        id: String,
        continuationToken: String
    ) async throws(APIError) -> RecoveryAttemptRecord {
        let resolved: (attempt: RecoveryAttemptRecord, flow: FlowRecord)
        do {
            resolved = try await authorization.recoveryContinuation(attemptID: id, token: continuationToken)
        } catch {
            throw error == .recoveryContinuationInvalid ? .recoveryTokenInvalid : error
        }
        let attempt = resolved.attempt
        guard resolved.flow.status == .completed else { throw APIError.recoveryTokenInvalid }
        guard attempt.startedBy == .console else { throw APIError.recoveryFinalizeByBackend }
        return attempt
    }

    /// Refuses an attempt whose recovery token may no longer be used: it was exchanged, cancelled or has expired.
    private func refuseUnexchangeable(_ attempt: RecoveryAttemptRecord) throws(APIError) {
        switch attempt.status {
        case .cancelled: throw APIError.recoveryAttemptCancelled
        case .exchanged, .finalized: throw APIError.recoveryTokenInvalid
        case .pending: break
        }
        guard attempt.expiresAt > now() else { throw APIError.recoveryAttemptExpired }
    }

    /// The recovery code for a failure of the replacement registration: the WebAuthn reason rides along.
    private static func recoveryError(for error: APIError) -> APIError {
        switch error.code {
        case .challengeExpired, .registrationAttemptExpired, .invalidOrExpiredSession:
            return .recoveryRegistrationExpired
        case .challengeMismatch:
            return .recoveryRegistrationMismatch
        case .invalidRequest, .challengeConsumed, .credentialAlreadyRegistered, .maxCredentialsReached,
            .credentialNameInvalid,
            .credentialNameHtml, .credentialNameDuplicate, .registrationAttemptConflict:
            return error
        default:
            return error.status.code >= 500 ? error : .recoveryRegistrationFailed(error)
        }
    }
}

extension Caller {
    /// The caller of an open route that a client drives with a token in its body: audited as `client`.
    var asClient: Caller { Caller(actor: "client", requestID: requestID, clientIP: clientIP) }
}
