import Foundation
import HTTPTypes
import Logging
import PasskeyStorage
import WebAuthn

/// Flow 1 of DESIGN §3, the client's part: the options for the authenticator, and the response verified and stored.
extension RegistrationFlow {
    /// The creation options of `flow` (a registration, or a recovery's replacement registration), with a new challenge.
    func options(
        for flow: FlowRecord
    ) async throws(APIError) -> PublicKeyOptionsResponse<PublicKeyCredentialCreationOptionsJSON> {
        let state = try decodePayload(RegistrationState.self, from: flow)
        if state.identityVerification == true {
            _ = try await identityVerification.approvedWorkflowRun(flowID: flow.id)
        }
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
        let run =
            state.identityVerification == true
            ? try await identityVerification.approvedWorkflowRun(flowID: flow.id) : nil
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
        // An explicit-finalize attempt: the app hands this token to its backend, which presents it to settle.
        let finalizeToken = state.explicitFinalize ? Secrets.token(prefix: "pkf_") : nil
        completed.finalizeTokenHash = finalizeToken.map { Base64URL.encode(Secrets.hash($0)) }
        // §7.1 step 25 (the credential id is not registered yet) and the store's limits, in one atomic insert.
        try await insertRegisteredCredential(
            &row,
            state: state,
            completedPayload: try Self.encodePayload(completed),
            defaultName: requestedName == nil ? defaultName : nil,
            flow: flow,
            audit: { row in
                auditAppend(
                    .registrationCompleted,
                    by: caller,
                    userID: userID,
                    subject: Base64URL.encode(row.id),
                    details: [
                        "flow": flow.id, "name": row.name, "aaguid": row.aaguid,
                        "attestationFormat": row.attestationFormat, "status": row.status.rawValue,
                    ].merging(run.map { ["workflowRunId": $0.id] } ?? [:]) { first, _ in first }
                )
            },
            by: caller,
            at: time
        )
        metrics.ceremony(Ceremony.registration.rawValue, outcome: "succeeded")
        var response = CredentialResponse(row, metadata: metadataBLOB)
        response.finalizeToken = finalizeToken
        return response
    }
}
