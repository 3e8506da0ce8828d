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
    let sessions: SessionsFlow
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
        let created = auditAppend(
            .authenticationCreated,
            by: caller,
            userID: request.userId,
            subject: flow.id,
            details: [
                "mode": mode.rawValue, "transactionDigest": stepUp.transaction?.digest ?? "none",
                "identityVerification": "\(stepUp.identityVerification)",
            ].withAction(action)
        )
        try await auditedStorage(created) { try await store.createFlow(flow, audit: created) }
        return CreateAuthenticationResponse(
            biometricPasskeySessionId: flow.id,
            clientToken: token,
            expiresAt: flow.expiresAt,
            transaction: stepUp.transaction,
            identityVerification: stepUp.identityVerification ? "required" : nil
        )
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
        guard var result = state.result else { throw APIError.unexpected }
        if let handoff = state.crossPlatformSessionId {
            // Rejected on the phone, or cancelled on the first device, while the phone was completing: the approval
            // does not count.
            switch try await storage({ try await store.crossPlatformSession(id: handoff) })?.status {
            case .rejected: throw APIError.handoffRejected
            case .cancelled: throw APIError.handoffCancelled
            default: break
            }
        }
        let details = [String: String]().withAction(result.action)
        // Checked after the result is spent: a revocation that committed before this point (a recovery's finalize, an
        // operator) voids it, one after it came after the sign-in.
        if let id = try? Base64URL.decode(result.credentialId),
            try await storage({ try await store.credential(id: id) })?.status != .active
        {
            await audit(.authenticationVoided, by: caller, userID: result.userId, subject: flow.id, details: details)
            throw APIError.credentialInactive
        }
        await audit(.authenticationRedeemed, by: caller, userID: result.userId, subject: flow.id, details: details)
        if request.issueSession == true {
            result.session = try await sessions.issue(for: result, flowID: flow.id, by: caller)
        }
        return result
    }
}

extension [String: String] {
    /// The details with the sign-in's `action` (as the backend sent it), when it has one: the authentication.* audit
    /// events carry it so the log says what each sign-in was for.
    func withAction(_ action: String?) -> Self {
        guard let action else { return self }
        var details = self
        details["action"] = action
        return details
    }
}
