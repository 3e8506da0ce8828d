import Foundation
import HTTPTypes
import Logging
import PasskeyStorage
import WebAuthn

/// Flow 2 of DESIGN §3: sign-in, with a username or without (discoverable credentials), in standard or
/// step-up mode; the result is redeemed once by the integrator's backend.
struct SignInFlow: ServiceFlow {
    let context: FlowContext
    let identityVerification: IdentityVerificationFlow
    let handoff: HandoffFlow
}

extension SignInFlow {
    /// - Parameter requireUserVerification: user verification is required whatever the policy (the console's).
    func create(
        _ request: CreateAuthenticationRequest,
        requireUserVerification: Bool = false,
        demoAccountsOnly: Bool = false,
        by caller: Caller
    ) async throws(APIError) -> CreateAuthenticationResponse {
        guard let mode = SignInMode(rawValue: request.mode ?? "standard") else {
            throw APIError.invalidRequest("mode must be 'standard' or 'stepUp'.")
        }
        let stepUp = try stepUpRequirements(request, mode: mode)
        try await identityVerification.refuseReusedWorkflowRun(request.workflowRunId)
        let action = try request.action.map { action throws(APIError) in
            try Validation.text(action, field: "action", maximum: 128)
        }
        if let userID = request.userId {
            try Validation.userID(userID)
            guard let user = try await storage({ try await store.userWithCredentials(id: userID) }) else {
                throw APIError.notFound("No user \(userID).")
            }
            guard user.credentials.contains(where: { $0.status == .active }) else { throw APIError.noActiveCredentials }
        } else if mode == .stepUp {
            throw APIError.invalidRequest("A step-up sign-in needs the userId of the user who must confirm.")
        }
        let time = now()
        let token = Secrets.token(prefix: "pkc_")
        let flow = FlowRecord(
            id: Secrets.identifier(prefix: "auth_"),
            kind: .authentication,
            status: .created,
            userID: request.userId,
            clientTokenHash: Secrets.hash(token),
            expiresAt: expiry(configuration.expiries.authenticationSession),
            createdAt: time,
            updatedAt: time,
            payload: try Self.encodePayload(
                AuthenticationState(
                    mode: mode,
                    action: action,
                    transaction: stepUp.transaction,
                    identityVerification: stepUp.identityVerification ? true : nil,
                    userVerificationRequired: requireUserVerification ? true : nil,
                    demoAccountsOnly: demoAccountsOnly ? true : nil
                )
            )
        )
        try await storage { try await store.createFlow(flow) }
        await audit(
            .authenticationCreated,
            by: caller,
            userID: request.userId,
            subject: flow.id,
            details: [
                "mode": mode.rawValue, "transactionDigest": stepUp.transaction?.digest ?? "none",
                "identityVerification": "\(stepUp.identityVerification)",
            ]
        )
        return CreateAuthenticationResponse(
            biometricPasskeySessionId: flow.id,
            clientToken: token,
            expiresAt: flow.expiresAt,
            transaction: stepUp.transaction,
            identityVerification: stepUp.identityVerification ? "required" : nil
        )
    }

    /// The request options of `flow`, with a new challenge (a step-up's: one, bound to its transaction).
    func options(
        for flow: FlowRecord
    ) async throws(APIError) -> PublicKeyOptionsResponse<PublicKeyCredentialRequestOptionsJSON> {
        var state = try decodePayload(AuthenticationState.self, from: flow)
        if let id = state.crossPlatformSessionId { _ = try await handoff.requireConfirmed(id: id) }
        if state.identityVerification == true {
            _ = try await identityVerification.approvedWorkflowRun(
                flowID: state.workflowRunKey(flow),
                notStarted: .workflowNotStarted
            )
        }
        var allowed: [PublicKeyCredentialDescriptorJSON] = []
        if let userID = flow.userID {
            allowed = try await storage { try await store.credentials(userID: userID) }.filter { $0.status == .active }
                .map {
                    PublicKeyCredentialDescriptorJSON(
                        id: Base64URLBytes($0.id),
                        transports: $0.transports.map(AuthenticatorTransport.init(rawValue:))
                    )
                }
            guard !allowed.isEmpty else { throw APIError.noActiveCredentials }
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

    /// Completes the sign-in of `flow`, which ``ClientAuthorization`` resolved for this request.
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
        let challenge = try await consumeChallenge(
            flow,
            clientDataJSON: request.credential.response.clientDataJSON.bytes
        )

        do throws(APIError) {
            guard
                let found = try await storage({
                    try await store.credentialWithOwner(id: request.credential.rawId.bytes)
                })
            else {
                throw APIError.credentialNotFound
            }
            let (stored, owner) = (found.credential, found.owner)
            guard stored.status == .active else { throw APIError.credentialInactive }
            if let userID = flow.userID, stored.userID != userID {
                throw state.mode == .stepUp ? APIError.userMismatch : APIError.credentialNotFound
            }
            if let allowed = state.allowedCredentialIDs, !allowed.contains(Base64URL.encode(stored.id)) {
                throw APIError.stepUpAuthSessionMismatch
            }
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
            let record = CredentialRecord(
                id: stored.id,
                publicKey: key,
                signCount: stored.signCount,
                userHandle: owner.handle,
                backupEligible: stored.backupEligible
            )
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
            let verified: VerifiedAuthentication
            do throws(WebAuthnError) {
                verified = try ceremony.verify(request.credential, credential: record)
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
            let time = now()
            let result = AuthenticationResult(
                userId: owner.id,
                credentialId: Base64URL.encode(stored.id),
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
            // A handed-off session is redeemed by the device that handed it off, with its poll token.
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
            let recording = try await storage {
                try await store.recordAuthentication(
                    use,
                    flowID: flow.id,
                    expectedStatuses: [.verifying],
                    flowUpdate: update,
                    at: time
                )
            }
            switch recording {
            case .recorded: break
            case .credentialNotRecorded(let current):
                // Revoked since it was read (the sign-in loses the race with the revocation), or another sign-in with
                // it was recorded first: never store a counter that steps back.
                throw current?.status == .active ? APIError.credentialUseConflict : APIError.credentialInactive
            case .flowNotUpdated: throw APIError.invalidOrExpiredSession
            }
            await releaseAttempt(addressLimit)
            metrics.ceremony("authentication", outcome: "succeeded")
            await audit(
                .authenticationCompleted,
                by: caller,
                userID: owner.id,
                subject: result.credentialId,
                details: [
                    "flow": flow.id, "mode": state.mode.rawValue, "userVerified": "\(verified.userVerified)",
                    "signCountRegressed": "\(verified.signCountRegressed)",
                ]
            )
            return CompleteAuthenticationResponse(resultToken: token, expiresAt: expiresAt)
        } catch {
            await markFailed(flow)
            metrics.ceremony("authentication", outcome: "failed")
            await audit(
                .authenticationFailed,
                by: caller,
                userID: flow.userID,
                subject: flow.id,
                details: ["code": error.code.rawValue]
            )
            let credentialLimit = FailureLimit.failedAssertions(
                credentialID: request.credential.rawId.bytes,
                configuration.limits
            )
            throw try await recordFailure(credentialLimit) ?? error
        }
    }

    /// The demo's sign-in is completed only by a passkey of an account the demo made: another account's is refused
    /// before anything is verified or recorded, the sign-in fails and its handoff (if any) is rejected, so the phone
    /// and the first device both say why (`DEMO_ACCOUNT_REQUIRED`) and nothing is approved.
    private func refuseSiteAccount(
        _ flow: FlowRecord,
        state: AuthenticationState,
        credentialID: [UInt8],
        by caller: Caller
    ) async throws(APIError) {
        guard let found = try await storage({ try await store.credentialWithOwner(id: credentialID) }),
            !WebPages.isDemoUser(found.owner)
        else { return }
        var refused = state
        refused.refusal = APIError.demoAccountsOnly.code.rawValue
        let payload = try Self.encodePayload(refused)
        let time = now()
        _ = try await storage {
            try await store.updateFlow(
                id: flow.id,
                expectedStatuses: [.optionsIssued, .verifying],
                at: time,
                update: FlowUpdate(status: .failed, clearChallenge: true, payload: payload)
            )
        }
        if let id = state.crossPlatformSessionId {
            _ = try await storage {
                try await store.updateCrossPlatformSession(
                    id: id,
                    from: [.claimed, .confirmed],
                    to: .rejected,
                    at: time
                )
            }
        }
        await audit(
            .authenticationFailed,
            by: caller,
            userID: found.owner.id,
            subject: flow.id,
            details: ["code": APIError.demoAccountsOnly.code.rawValue]
        )
        throw APIError.demoAccountsOnly
    }

    /// `POST /v1/authentications/{id}/redeem`: the backend spends the result token, once.
    func redeem(
        id flowID: String,
        request: RedeemRequest,
        by caller: Caller
    ) async throws(APIError) -> AuthenticationResult {
        guard
            let flow = try await storage({
                try await store.redeemResult(
                    flowID: flowID,
                    resultTokenHash: Secrets.hash(request.resultToken),
                    at: now()
                )
            })
        else {
            guard let current = try await storage({ try await store.flow(id: flowID) }), current.kind == .authentication
            else {
                throw APIError.notFound("No authentication session \(flowID).")
            }
            if current.status == .redeemed { throw APIError.resultAlreadyRedeemed }
            if current.status == .completed, let expiry = current.resultExpiresAt, expiry <= now() {
                throw APIError.invalidOrExpiredSession
            }
            if current.status == .completed {
                throw APIError(.invalidResultToken, .forbidden, "The result token does not belong to this session.")
            }
            throw APIError(
                .authenticationNotCompleted,
                .conflict,
                "The user has not completed this sign-in (status \(current.status.rawValue))."
            )
        }
        let state = try decodePayload(AuthenticationState.self, from: flow)
        guard let result = state.result else { throw APIError.unexpected }
        if let handoff = state.crossPlatformSessionId {
            // Rejected on the phone, or cancelled on the first device, while the phone was completing: the approval
            // does not count.
            switch try await storage({ try await store.crossPlatformSession(id: handoff) })?.status {
            case .rejected: throw APIError.handoffRejected
            case .cancelled: throw APIError.handoffCancelled
            default: break
            }
        }
        // Checked after the result is spent: a revocation that committed before this point (a recovery's finalize, an
        // operator) voids it, one after it came after the sign-in.
        if let id = try? Base64URL.decode(result.credentialId),
            try await storage({ try await store.credential(id: id) })?.status != .active
        {
            await audit(.authenticationVoided, by: caller, userID: result.userId, subject: flow.id)
            throw APIError.credentialInactive
        }
        await audit(.authenticationRedeemed, by: caller, userID: result.userId, subject: flow.id)
        return result
    }
}
