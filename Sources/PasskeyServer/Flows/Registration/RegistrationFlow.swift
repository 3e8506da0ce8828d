import Foundation
import HTTPTypes
import Logging
import PasskeyStorage
import WebAuthn

/// Flow 1 of DESIGN §3: registration (enroll), with optional two-phase commit.
struct RegistrationFlow: ServiceFlow {
    let context: FlowContext
    let identityVerification: IdentityVerificationFlow
}

extension RegistrationFlow {
    /// - Parameters:
    ///   - newAccount: a sign-up (the demo's): completing it fails with `USER_NAME_TAKEN` when the user has had a
    ///     passkey by then. Until it completes, the user's stored display name is not the one it asks for (the user
    ///     name stands in for a user it creates): only the sign-up that completes writes its profile.
    ///   - forConsole: the passkey is enrolled for the operator console (only the console's enrolment passes it).
    func create(
        _ request: CreateRegistrationRequest,
        newAccount: Bool = false,
        forConsole: Bool = false,
        by caller: Caller
    ) async throws(APIError) -> CreateRegistrationResponse {
        try Validation.userID(request.userId)
        let userName = try Validation.text(request.userName, field: "userName", maximum: 256)
        let displayName = try Validation.text(request.displayName ?? userName, field: "displayName", maximum: 256)
        if let name = request.credentialName { _ = try CredentialName(name) }
        let verifyIdentity = try identityVerificationRequired(request.identityVerification)
        try await identityVerification.refuseReusedWorkflowRun(request.workflowRunId)
        let explicit: Bool
        switch request.finalize ?? "automatic" {
        case "automatic": explicit = false
        case "explicit": explicit = true
        default: throw APIError.invalidRequest("finalize must be 'automatic' or 'explicit'.")
        }

        let time = now()
        let user = try await storage {
            do {
                return try await store.createUserIfAbsent(
                    UserRecord(
                        id: request.userId,
                        handle: Secrets.randomBytes(32),
                        name: userName,
                        displayName: newAccount ? userName : displayName,
                        createdAt: time
                    )
                )
            } catch let error as StoreError where error.code == .nameTaken {
                // User names are unique: this one is another user's (another userId).
                throw APIError.userNameTaken
            }
        }
        let token = Secrets.token(prefix: "pkc_")
        let flowID = Secrets.identifier(prefix: "reg_")
        // The run first: when the provider cannot create it, no attempt is left that could never go on.
        let run =
            verifyIdentity
            ? try await identityVerification.startWorkflowRun(
                purpose: .enrollment,
                userID: user.id,
                flowID: flowID,
                by: caller
            ) : nil
        let flow = FlowRecord(
            id: flowID,
            kind: .registration,
            status: .created,
            userID: user.id,
            clientTokenHash: Secrets.hash(token),
            expiresAt: expiry(configuration.expiries.registrationAttempt),
            createdAt: time,
            updatedAt: time,
            payload: try Self.encodePayload(
                RegistrationState(
                    userName: userName,
                    displayName: displayName,
                    credentialName: request.credentialName,
                    explicitFinalize: explicit,
                    newAccount: newAccount ? true : nil,
                    identityVerification: verifyIdentity ? true : nil,
                    consolePasskey: forConsole ? true : nil
                )
            )
        )
        let created = auditAppend(
            .registrationCreated,
            by: caller,
            userID: user.id,
            subject: flow.id,
            details: ["finalize": explicit ? "explicit" : "automatic"].merging(
                run.map { ["workflowRunId": $0.workflowRunId] } ?? [:]
            ) { first, _ in first }
        )
        try await auditedStorage(created) { try await store.createFlow(flow, audit: created) }
        return CreateRegistrationResponse(
            registrationAttemptId: flow.id,
            clientToken: token,
            expiresAt: flow.expiresAt,
            workflowRunId: run?.workflowRunId,
            idvToken: run?.idvToken
        )
    }

    /// Whether the registration verifies the person's identity: as the request asks (`required`; `none` or its synonym
    /// `optional`: not), unless `policy.enrollment.requireIdentityVerification` makes every registration verify it,
    /// when a request that asks for none is refused and one that says nothing verifies.
    private func identityVerificationRequired(_ requested: String?) throws(APIError) -> Bool {
        let policy = configuration.policy.enrollment.requireIdentityVerification
        switch requested ?? (policy ? "required" : "none") {
        case "none", "optional":
            guard !policy else {
                throw APIError.invalidRequest(
                    "identityVerification '\(requested ?? "")' is refused: this server's policy.enrollment.requireIdentityVerification makes every registration verify the person's identity. Leave identityVerification out, or send 'required'."
                )
            }
            return false
        case "required":
            guard configuration.identityVerification.provider != .disabled else {
                throw APIError.identityVerificationNotConfigured("identityVerification 'required'")
            }
            return true
        default: throw APIError.invalidRequest("identityVerification must be 'required', 'optional' or 'none'.")
        }
    }

    /// `GET /v1/registrations/{id}`
    func status(id flowID: String) async throws(APIError) -> RegistrationStatusResponse {
        let flow = try await attempt(id: flowID)
        guard let userID = flow.userID else { throw APIError.notFound("No registration attempt \(flowID).") }
        let state = try decodePayload(RegistrationState.self, from: flow)
        var credential: CredentialResponse?
        if let id = state.credentialID, let bytes = try? Base64URL.decode(id),
            let row = try await storage({ try await store.credential(id: bytes) }),
            // A later registration may have replaced this attempt's expired reservation: that credential is not its.
            row.flowID == flow.id
        {
            credential = CredentialResponse(row, metadata: metadataBLOB)
        }
        let expired = flow.expiresAt <= now() && [.created, .optionsIssued, .failed, .verifying].contains(flow.status)
        return RegistrationStatusResponse(
            registrationAttemptId: flow.id,
            userId: userID,
            status: expired ? "expired" : flow.status.rawValue,
            finalize: state.explicitFinalize ? "explicit" : "automatic",
            createdAt: flow.createdAt,
            expiresAt: flow.expiresAt,
            credential: credential,
            reason: flow.status == .aborted ? state.abortReason : nil
        )
    }

    /// The registration attempt `id`; `REGISTRATION_ATTEMPT_CLEANED_UP` when the purge removed it (and still
    /// remembers it), `NOT_FOUND` when there is none.
    func attempt(id flowID: String) async throws(APIError) -> FlowRecord {
        if let flow = try await storage({ try await store.flow(id: flowID) }), flow.kind == .registration {
            return flow
        }
        guard try await storage({ try await store.purgedRegistration(id: flowID) }) == nil else {
            throw .registrationAttemptCleanedUp
        }
        throw .notFound("No registration attempt \(flowID).")
    }

    /// `POST /v1/registrations/{id}/finalize`: the reserved passkey of an attempt created with `finalize: "explicit"`
    /// becomes active.
    /// The body must carry the finalize token `complete` returned (`FINALIZE_TOKEN_INVALID` otherwise).
    func finalize(
        id: String,
        _ request: SettleRegistrationRequest,
        by caller: Caller
    ) async throws(APIError) -> RegistrationStatusResponse {
        guard !request.hasReasonKey else {
            throw APIError.invalidRequest("A reason is given to abort an attempt, not to finalize it.")
        }
        return try await settle(flowID: id, request, finalize: true, by: caller)
    }

    /// `POST /v1/registrations/{id}/abort`: the reserved passkey of such an attempt is deleted. With
    /// `reason: "IDP_COMMIT_FAILED"` the attempt's status says so, and the app is answered `IDP_COMMIT_FAILED`.
    func abort(
        id: String,
        _ request: SettleRegistrationRequest,
        by caller: Caller
    ) async throws(APIError) -> RegistrationStatusResponse {
        if let reason = request.reason, !AbortReason.all.contains(reason) {
            throw APIError.invalidRequest("reason must be '\(AbortReason.idpCommitFailed)', or left out.")
        }
        return try await settle(flowID: id, request, finalize: false, by: caller)
    }

    private func settle(
        flowID: String,
        _ request: SettleRegistrationRequest,
        finalize: Bool,
        by caller: Caller
    ) async throws(APIError) -> RegistrationStatusResponse {
        let flow = try await attempt(id: flowID)
        var state = try decodePayload(RegistrationState.self, from: flow)
        guard state.explicitFinalize else {
            throw APIError.registrationAttemptConflict(
                "This attempt was not created with finalize 'explicit'; its credential is active already."
            )
        }
        if flow.status == .cancelled { throw .registrationAttemptCancelled }
        // Once completed, only the holder of the finalize token that `complete` returned may settle it.
        if let tokenHash = state.finalizeTokenHash.flatMap({ try? Base64URL.decode($0) }),
            !ClientAuthorization.holds(request.finalizeToken, for: tokenHash)
        {
            throw .finalizeTokenInvalid
        }
        if finalize, let ended = endedRefusal(flow), ended.code == .idpCommitFailed { throw ended }
        guard flow.status == .completed else {
            throw flow.status == .finalized || flow.status == .aborted
                ? .registrationAttemptConflict("This registration attempt was already \(flow.status.rawValue).")
                : .registrationAttemptConflict("This registration attempt has no registered credential yet.")
        }
        state.abortReason = finalize ? nil : request.reason
        let payload = try Self.encodePayload(state)
        let settled = try await storage {
            try await store.settleReservation(
                flowID: flowID,
                finalize: finalize,
                flowUpdate: FlowUpdate(status: finalize ? .finalized : .aborted, payload: payload),
                at: now()
            )
        }
        guard settled != nil else {
            // A concurrent finalize or abort may have settled it first; only an unsettled attempt has expired.
            if let current = try await storage({ try await store.flow(id: flowID) }),
                current.status == .finalized || current.status == .aborted
            {
                throw .registrationAttemptConflict("This registration attempt was already \(current.status.rawValue).")
            }
            throw finalize
                ? .reservationExpired : .registrationAttemptConflict("Nothing is reserved for this attempt any more.")
        }
        await audit(
            finalize ? .registrationFinalized : .registrationAborted,
            by: caller,
            userID: flow.userID,
            subject: state.credentialID,
            details: ["flow": flow.id].merging(request.reason.map { ["reason": $0] } ?? [:]) { first, _ in first }
        )
        return try await status(id: flowID)
    }

    /// `POST /v1/registrations/{id}/cancel`: the backend ends an attempt before it completes; every later call on it
    /// is answered `REGISTRATION_ATTEMPT_CANCELLED`. An attempt whose response is being verified right now, or that
    /// completed, is not cancelled (a completed explicit-finalize attempt is aborted instead).
    func cancel(id flowID: String, by caller: Caller) async throws(APIError) -> RegistrationStatusResponse {
        let flow = try await attempt(id: flowID)
        let cancellable: Set<FlowStatus> = [.created, .optionsIssued, .failed]
        let cancelled = try await storage {
            try await store.updateFlow(
                id: flowID,
                expectedStatuses: cancellable,
                at: now(),
                update: FlowUpdate(status: .cancelled, clearChallenge: true)
            )
        }
        guard cancelled != nil else {
            // Say why, from the attempt as it is now.
            let current = try await storage { try await store.flow(id: flowID) } ?? flow
            if let ended = endedRefusal(current) { throw ended }
            if cancellable.contains(current.status) { throw .registrationAttemptExpired }
            throw .registrationAttemptConflict(
                current.status == .verifying
                    ? "This registration attempt is being completed right now; read its status, then abort it if it was created with finalize 'explicit'."
                    : "This registration attempt is \(current.status.rawValue) already; it can no longer be cancelled."
            )
        }
        await audit(.registrationCancelled, by: caller, userID: flow.userID, subject: flow.id)
        return try await status(id: flowID)
    }

    static func uniqueDefaultName(_ base: String, taken: Set<String>) -> String {
        guard taken.contains(base.lowercased()) else { return base }
        for suffix in 2... where !taken.contains("\(base) \(suffix)".lowercased()) { return "\(base) \(suffix)" }
        return base
    }
}
