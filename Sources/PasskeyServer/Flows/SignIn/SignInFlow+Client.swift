import Foundation
import HTTPTypes
import Logging
import PasskeyStorage
import WebAuthn

/// Flow 2 of DESIGN §3, the client's part: the options for the authenticator, and the assertion verified and
/// recorded.
extension SignInFlow {
    /// The request options of `flow`, with a new challenge (a step-up's: one, bound to its transaction); narrowed to
    /// the passkeys the device says it `held`, when it says (see ``AuthenticationOptionsRequest``).
    func options(
        for flow: FlowRecord,
        held: AuthenticationOptionsRequest = .none,
        by caller: Caller
    ) async throws(APIError) -> PublicKeyOptionsResponse<PublicKeyCredentialRequestOptionsJSON> {
        var state = try decodePayload(AuthenticationState.self, from: flow)
        if let id = state.crossPlatformSessionId { _ = try await handoff.requireConfirmed(id: id) }
        if state.identityVerification == true {
            _ = try await identityVerification.approvedWorkflowRun(
                flowID: state.workflowRunKey(flow),
                notStarted: .workflowNotStarted
            )
        }
        var credentials: [CredentialRecordRow] = []
        if let userID = flow.userID {
            credentials = try await storage { try await store.credentials(userID: userID) }.filter {
                $0.status == .active
            }
            guard !credentials.isEmpty else { throw APIError.noActiveCredentials }
        }
        if let ids = held.credentialIds {
            credentials = try await heldCredentials(ids, for: flow, state: state, by: caller)
        }
        let allowed = credentials.map {
            PublicKeyCredentialDescriptorJSON(
                id: Base64URLBytes($0.id),
                transports: $0.transports.map(AuthenticatorTransport.init(rawValue:))
            )
        }
        // A handed-off session's first options are the phone's.
        let first: FlowStatus = state.crossPlatformSessionId == nil ? .created : .handedOff
        var refresh: Set<FlowStatus> = [first, .optionsIssued, .failed]
        if state.mode == .stepUp {
            // A step-up signs one challenge, and its allow-list is fixed with it.
            refresh = [first]
            state.allowedCredentialIDs = allowed.map(\.id.base64URL)
        }
        let random = Secrets.randomBytes(32)
        let challenge = try await issueChallenge(
            flow,
            challenge: state.transaction?.challenge(random: random) ?? random,
            from: refresh,
            payload: state.mode == .stepUp ? try Self.encodePayload(state) : nil
        )
        var builder = RequestOptionsBuilder(relyingPartyID: configuration.rpId)
        builder.timeout = UInt32(configuration.expiries.challenge * 1000)
        builder.userVerification = state.userVerification(policy: configuration.policy.userVerification)
        do {
            return PublicKeyOptionsResponse(
                publicKey: try builder.build(challenge: challenge, allowCredentials: allowed),
                transaction: state.transaction
            )
        } catch {
            logger.error("request options could not be built", metadata: ["error": "\(error)"])
            throw APIError.unexpected
        }
    }

    /// Completes the sign-in of `flow`, which ``ClientAuthorization`` resolved for this request: the steps of WebAuthn
    /// §7.2 that need the relying party's state are here (the credential looked up, the result recorded), the
    /// others in `AuthenticationCeremony`.
    func complete(
        _ flow: FlowRecord,
        request: CompleteAuthenticationRequest,
        by caller: Caller
    ) async throws(APIError) -> CompleteAuthenticationResponse {
        let state = try decodePayload(AuthenticationState.self, from: flow)
        var handedOff: CrossPlatformSessionRecord?
        if let id = state.crossPlatformSessionId { handedOff = try await handoff.requireConfirmed(id: id) }
        if state.demoAccountsOnly == true {
            try await refuseSiteAccount(flow, state: state, credentialID: request.credential.rawId.bytes, by: caller)
        }
        let run =
            state.identityVerification == true
            ? try await identityVerification.approvedWorkflowRun(
                flowID: state.workflowRunKey(flow),
                notStarted: .workflowNotStarted
            ) : nil
        // The client address's attempt is counted before anything is tried, and given back when it succeeds.
        let addressLimit = FailureLimit.failedAssertions(clientIP: caller.clientIP, configuration.limits)
        try await countAttempt(addressLimit)
        // The challenge is used once (§13.4.3): consumed before the response is verified against it.
        let challenge = try await consumeChallenge(
            flow,
            clientDataJSON: request.credential.response.clientDataJSON.bytes
        )
        do throws(APIError) {
            let found = try await allowedCredential(request.credential.rawId.bytes, flow: flow, state: state)
            let verified = try await verifyAssertion(
                request.credential,
                challenge: challenge,
                of: found,
                flow,
                state,
                caller
            )
            let time = now()
            let result = AuthenticationResult(
                userId: found.owner.id,
                credentialId: Base64URL.encode(found.credential.id),
                userVerified: verified.userVerified,
                backupEligible: verified.backupEligible,
                backupState: verified.backupState,
                mode: state.mode,
                action: state.action,
                completedAt: time,
                transaction: state.transaction,
                assurance: AuthenticationResult.assurance(userVerified: verified.userVerified, run: run),
                identityVerification: run.map {
                    AuthenticationResult.IdentityVerificationOutcome(
                        workflowRunId: $0.id,
                        decision: $0.status.rawValue,
                        faceMatch: $0.faceMatch?.rawValue,
                        simulated: isSimulatedIdentityVerification ? true : nil
                    )
                }
            )
            let completed = auditAppend(
                .authenticationCompleted,
                by: caller,
                userID: found.owner.id,
                subject: result.credentialId,
                details: [
                    "flow": flow.id, "mode": state.mode.rawValue, "userVerified": "\(verified.userVerified)",
                    "signCountRegressed": "\(verified.signCountRegressed)", "assurance": result.assurance ?? "none",
                    "transactionDigest": state.transaction?.digest ?? "none", "handoff": handedOff?.id ?? "none",
                ].withAction(state.action)
            )
            let response = try await record(
                result,
                verified,
                of: found.credential,
                flow,
                state,
                handedOff,
                audit: completed,
                at: time
            )
            await releaseAttempt(addressLimit)
            metrics.ceremony(Ceremony.authentication.rawValue, outcome: "succeeded", action: state.action)
            return response
        } catch {
            await ceremonyFailed(
                .authentication,
                flow: flow,
                userID: flow.userID,
                code: error.code,
                action: state.action,
                by: caller
            )
            let credentialLimit = FailureLimit.failedAssertions(
                credentialID: request.credential.rawId.bytes,
                configuration.limits
            )
            throw try await recordFailure(credentialLimit) ?? error
        }
    }

    /// §7.2 steps 5–7: the credential the response names, with its owner, when this session may use it — active, of
    /// the session's user, and (a step-up) in the allow-list its options gave out.
    private func allowedCredential(
        _ id: [UInt8],
        flow: FlowRecord,
        state: AuthenticationState
    ) async throws(APIError) -> CredentialOwner {
        guard let found = try await storage({ try await store.credentialWithOwner(id: id) }) else {
            throw APIError.credentialNotFound
        }
        let stored = found.credential
        guard stored.status == .active else { throw APIError.credentialInactive }
        if let userID = flow.userID, stored.userID != userID {
            throw state.mode == .stepUp ? APIError.userMismatch : APIError.credentialNotFound
        }
        if let allowed = state.allowedCredentialIDs, !allowed.contains(Base64URL.encode(stored.id)) {
            throw APIError.stepUpAuthSessionMismatch
        }
        return found
    }

    /// The steps of §7.2 that `AuthenticationCeremony` takes (client data, authenticator data, signature, counter),
    /// with the server's policy. A counter that went back is audited as a suspected clone before the refusal is answered.
    private func verifyAssertion(
        _ response: AuthenticationResponseJSON,
        challenge: [UInt8],
        of found: CredentialOwner,
        _ flow: FlowRecord,
        _ state: AuthenticationState,
        _ caller: Caller
    ) async throws(APIError) -> VerifiedAuthentication {
        let (stored, owner) = (found.credential, found.owner)
        let key: COSEKey
        do {
            key = try COSEKey(cborRepresentation: stored.publicKey)
        } catch {
            logger.error(
                "stored public key cannot be decoded",
                metadata: ["credential": "\(Base64URL.encode(stored.id))"]
            )
            throw APIError.unexpected
        }
        let ceremony = AuthenticationCeremony(
            challenge: challenge,
            relyingPartyID: configuration.rpId,
            origins: origins,
            user: flow.userID == nil ? .discoverable : .identified(userHandle: owner.handle),
            userVerification: state.userVerification(policy: configuration.policy.userVerification),
            allowCredentials: [],
            signCountPolicy: configuration.policy.signCount == .reject ? .rejectRegression : .reportRegression,
            allowBackupEligible: configuration.policy.allowSyncedCredentials
        )
        do throws(WebAuthnError) {
            return try ceremony.verify(
                response,
                credential: CredentialRecord(
                    id: stored.id,
                    publicKey: key,
                    signCount: stored.signCount,
                    userHandle: owner.handle,
                    backupEligible: stored.backupEligible
                )
            )
        } catch {
            if error.code == .signCountRegression {
                await audit(
                    .credentialCloneSuspected,
                    by: caller,
                    userID: owner.id,
                    subject: Base64URL.encode(stored.id),
                    details: ["stored": "\(stored.signCount)"]
                )
            }
            throw APIError(error)
        }
    }

    /// §7.2 step 24: the credential record's new counter and backup state, and the completed flow with its result, in
    /// one store operation that refuses a credential revoked or used meanwhile, and appends `audit` when it records
    /// them. A handed-off session is redeemed by the device that handed it off, with its poll token; any other gets a
    /// result token.
    private func record(
        _ result: AuthenticationResult,
        _ verified: VerifiedAuthentication,
        of stored: CredentialRecordRow,
        _ flow: FlowRecord,
        _ state: AuthenticationState,
        _ handedOff: CrossPlatformSessionRecord?,
        audit: AuditAppend,
        at time: Date
    ) async throws(APIError) -> CompleteAuthenticationResponse {
        let token = handedOff == nil ? Secrets.token(prefix: "pkr_") : nil
        let expiresAt = expiry(configuration.expiries.resultToken)
        var completed = state
        completed.result = result
        let update = FlowUpdate(
            status: .completed,
            resultTokenHash: handedOff?.pollTokenHash ?? Secrets.hash(token ?? ""),
            resultExpiresAt: expiresAt,
            payload: try Self.encodePayload(completed)
        )
        let use = CredentialUse(
            credentialID: stored.id,
            expectedSignCount: stored.signCount,
            signCount: verified.signCount,
            backupState: verified.backupState
        )
        let recording = try await auditedStorage(audit) {
            try await store.recordAuthentication(
                use,
                flowID: flow.id,
                expectedStatuses: [.verifying],
                flowUpdate: update,
                at: time,
                audit: audit
            )
        }
        switch recording {
        case .recorded:
            return CompleteAuthenticationResponse(resultToken: token, expiresAt: expiresAt)
        case .credentialNotRecorded(let current):
            // Revoked since it was read (the sign-in loses the race with the revocation), or another sign-in with it
            // was recorded first: never store a counter that steps back.
            throw current?.status == .active ? APIError.credentialUseConflict : APIError.credentialInactive
        case .flowNotUpdated:
            throw APIError.invalidOrExpiredSession
        }
    }
}
