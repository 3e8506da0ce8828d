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
        let verifyIdentity: Bool
        switch request.identityVerification ?? "none" {
        case "none": verifyIdentity = false
        case "required":
            guard configuration.identityVerification.provider != .disabled else {
                throw APIError.identityVerificationNotConfigured("identityVerification 'required'")
            }
            verifyIdentity = true
        default: throw APIError.invalidRequest("identityVerification must be 'none' or 'required'.")
        }
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
            ? try await identityVerification.startWorkflowRun(purpose: .enrollment, userID: user.id, flowID: flowID, by: caller) : nil
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
        try await storage { try await store.createFlow(flow) }
        await audit(
            .registrationCreated,
            by: caller,
            userID: user.id,
            subject: flow.id,
            details: ["finalize": explicit ? "explicit" : "automatic"].merging(
                run.map { ["workflowRunId": $0.workflowRunId] } ?? [:]
            ) { first, _ in first }
        )
        return CreateRegistrationResponse(
            registrationAttemptId: flow.id,
            clientToken: token,
            expiresAt: flow.expiresAt,
            workflowRunId: run?.workflowRunId,
            idvToken: run?.idvToken
        )
    }

    /// The creation options of `flow` (a registration, or a recovery's replacement registration), with a new challenge.
    func options(
        for flow: FlowRecord
    ) async throws(APIError) -> PublicKeyOptionsResponse<PublicKeyCredentialCreationOptionsJSON> {
        let state = try decodePayload(RegistrationState.self, from: flow)
        if state.identityVerification == true { _ = try await identityVerification.approvedWorkflowRun(flowID: flow.id) }
        guard let userID = flow.userID, let user = try await storage({ try await store.user(id: userID) }) else {
            throw APIError.registrationAttemptExpired
        }
        // Expired reservations are released: listing them would stop the authenticator that holds one from registering again.
        let existing = try await storage { try await store.credentials(userID: userID) }.filter { $0.isLive(at: now()) }
        let challenge = try await issueChallenge(flow)
        var builder = CreationOptionsBuilder(relyingPartyID: configuration.rpId, relyingPartyName: configuration.rpName)
        builder.algorithms = configuration.policy.algorithms.map(COSEAlgorithmIdentifier.init(rawValue:))
        builder.timeout = UInt32(configuration.expiries.challenge * 1000)
        builder.residentKey = configuration.policy.residentKey
        builder.userVerification = configuration.policy.userVerification
        builder.authenticatorAttachment = configuration.policy.authenticatorAttachment
        builder.attestation = configuration.policy.attestation
        do {
            let options = try builder.build(
                user: PublicKeyCredentialUserEntityJSON(
                    id: Base64URLBytes(user.handle),
                    name: state.userName,
                    displayName: state.displayName
                ),
                challenge: challenge,
                excludeCredentials: existing.map {
                    PublicKeyCredentialDescriptorJSON(
                        id: Base64URLBytes($0.id),
                        transports: $0.transports.map(AuthenticatorTransport.init(rawValue:))
                    )
                }
            )
            return PublicKeyOptionsResponse(publicKey: options)
        } catch {
            logger.error("creation options could not be built", metadata: ["error": "\(error)"])
            throw APIError.unexpected
        }
    }

    /// Completes the registration of `flow`, which ``ClientAuthorization`` resolved for this request: the steps of
    /// WebAuthn §7.1 that need the relying party's state are here, the others in `RegistrationCeremony`.
    func complete(
        _ flow: FlowRecord,
        request: CompleteRegistrationRequest,
        by caller: Caller
    ) async throws(APIError) -> CredentialResponse {
        let state = try decodePayload(RegistrationState.self, from: flow)
        let requestedName = try (request.name ?? state.credentialName).map { name throws(APIError) in
            try CredentialName(name)
        }
        guard let userID = flow.userID else { throw APIError.registrationAttemptExpired }
        let run = state.identityVerification == true ? try await identityVerification.approvedWorkflowRun(flowID: flow.id) : nil
        // The challenge is used once (§13.4.3): consumed before the response is verified against it.
        let challenge = try await consumeChallenge(
            flow,
            clientDataJSON: request.credential.response.clientDataJSON.bytes
        )
        // §7.1 steps 3–24 and 27: the response, its authenticator data and its attestation.
        let registration = try await verifyRegistration(
            request.credential,
            challenge: challenge,
            flow: flow,
            userID: userID,
            by: caller
        )
        let time = now()
        let defaultName = AuthenticatorNames.defaultName(
            aaguid: registration.aaguid.description,
            transports: registration.transports.map(\.rawValue),
            backupEligible: registration.backupEligible,
            metadata: metadataBLOB
        )
        let name: CredentialName
        if let requestedName {
            name = requestedName
        } else {
            name = try await freeDefaultName(defaultName, userID: userID, at: time)
        }
        // §7.1 step 26: the credential record.
        var row = credentialRecord(
            registration,
            name: name,
            state: state,
            flow: flow,
            userID: userID,
            run: run,
            at: time
        )
        var completed = state
        completed.credentialID = Base64URL.encode(row.id)
        // §7.1 step 25 (the credential id is not registered yet) and the store's limits, in one atomic insert.
        try await insertRegisteredCredential(
            &row,
            state: state,
            completedPayload: try Self.encodePayload(completed),
            defaultName: requestedName == nil ? defaultName : nil,
            flow: flow,
            by: caller,
            at: time
        )
        metrics.ceremony("registration", outcome: "succeeded")
        await audit(
            .registrationCompleted,
            by: caller,
            userID: userID,
            subject: completed.credentialID,
            details: [
                "flow": flow.id, "name": row.name, "aaguid": row.aaguid, "attestationFormat": row.attestationFormat,
                "status": row.status.rawValue,
            ].merging(run.map { ["workflowRunId": $0.id] } ?? [:]) { first, _ in first }
        )
        return CredentialResponse(row, metadata: metadataBLOB)
    }

    /// `GET /v1/registrations/{id}`
    func status(id flowID: String) async throws(APIError) -> RegistrationStatusResponse {
        guard let flow = try await storage({ try await store.flow(id: flowID) }), flow.kind == .registration,
            let userID = flow.userID
        else {
            throw APIError.notFound("No registration attempt \(flowID).")
        }
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
            credential: credential
        )
    }

    /// `POST /v1/registrations/{id}/finalize`: the reserved passkey of an attempt created with `finalize: "explicit"`
    /// becomes active.
    func finalize(id: String, by caller: Caller) async throws(APIError) -> RegistrationStatusResponse {
        try await settle(flowID: id, finalize: true, by: caller)
    }

    /// `POST /v1/registrations/{id}/abort`: the reserved passkey of such an attempt is deleted.
    func abort(id: String, by caller: Caller) async throws(APIError) -> RegistrationStatusResponse {
        try await settle(flowID: id, finalize: false, by: caller)
    }

    private func settle(
        flowID: String,
        finalize: Bool,
        by caller: Caller
    ) async throws(APIError) -> RegistrationStatusResponse {
        guard let flow = try await storage({ try await store.flow(id: flowID) }), flow.kind == .registration else {
            throw APIError.notFound("No registration attempt \(flowID).")
        }
        let state = try decodePayload(RegistrationState.self, from: flow)
        guard state.explicitFinalize else {
            throw APIError.registrationAttemptConflict(
                "This attempt was not created with finalize 'explicit'; its credential is active already."
            )
        }
        guard flow.status == .completed else {
            throw flow.status == .finalized || flow.status == .aborted
                ? .registrationAttemptConflict("This registration attempt was already \(flow.status.rawValue).")
                : .registrationAttemptConflict("This registration attempt has no registered credential yet.")
        }
        let settled = try await storage {
            try await store.settleReservation(
                flowID: flowID,
                finalize: finalize,
                flowUpdate: FlowUpdate(status: finalize ? .finalized : .aborted),
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
            subject: state.credentialID
        )
        return try await status(id: flowID)
    }

    static func uniqueDefaultName(_ base: String, taken: Set<String>) -> String {
        guard taken.contains(base.lowercased()) else { return base }
        for suffix in 2... where !taken.contains("\(base) \(suffix)".lowercased()) { return "\(base) \(suffix)" }
        return base
    }
}
