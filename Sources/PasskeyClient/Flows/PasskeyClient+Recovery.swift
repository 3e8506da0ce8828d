public import Foundation
public import WebAuthn

extension PasskeyClient {
    /// Recovers the account on this new device (DESIGN §3 flow 5): starts the identity verification with the
    /// recovery token and runs the ``identityVerifier``; asks `registrationProvider` for the replacement
    /// registration data (again while the decision is on its way, within ``identityVerificationWait``); creates the
    /// passkey; and, when the data came from the passkey server (it carries a continuation token), completes it
    /// there — reserved until the backend finalizes the recovery and revokes the lost passkeys.
    ///
    /// - Throws: `RECOVERY_*` codes (token, attempt and expiry errors are never retryable: the person needs a new
    ///   recovery), `WORKFLOW_DECLINED`, `INVALID_CONFIGURATION` without an identity verifier, and the codes of
    ///   creating a passkey.
    public func recover(
        _ input: RecoveryInput,
        registrationProvider: any RecoveryRegistrationProvider
    ) async throws(PasskeyError) -> RecoveredCredentialOutput {
        try await traced("recover", ["recoveryAttemptId": "\(input.recoveryAttemptId)"]) {
            () async throws(PasskeyError) in try await recoverSteps(input, registrationProvider: registrationProvider)
        }
    }

    private func recoverSteps(
        _ input: RecoveryInput,
        registrationProvider: any RecoveryRegistrationProvider
    ) async throws(PasskeyError) -> RecoveredCredentialOutput {
        try Self.validateFlowID(input.recoveryAttemptId, field: "recoveryAttemptId")
        try Self.validateToken(input.recoveryToken, field: "recoveryToken")
        if let expiry = input.attemptExpiresAt, expiry <= Date() {
            throw PasskeyError(
                .recoveryAttemptExpired,
                "The recovery attempt expired at \(expiry); ask your backend for a new recovery (POST /v1/recoveries)."
            )
        }
        let verifier = try requireIdentityVerifier(for: "recover(_:registrationProvider:)")
        let started = try await api.startRecoveryIdentityVerification(
            recoveryAttemptId: input.recoveryAttemptId,
            recoveryToken: input.recoveryToken
        )
        trace("recover: identity verification", ["workflowRunId": "\(started.workflowRunId)"])
        try await verifier.verify(
            IdentityVerificationRequest(
                workflowRunId: started.workflowRunId,
                idvToken: started.idvToken,
                purpose: .recovery,
                expiresAt: started.expiresAt
            )
        )
        let data = try await awaitingApproval(while: .recoveryIdentityVerificationNotCompleted) {
            () async throws(PasskeyError) in
            try await registrationProvider.registrationData(for: input)
        }
        let options = try data.creationOptions(at: Date())
        try checkRelyingParty(options.rp.id)
        let userId = data.userId ?? data.userHandle
        trace("recover: registration data received", ["rpId": "\(data.rpId)"])
        let response = try await webAuthn.create(options, userId: userId)
        trace("recover: passkey created", ["credentialId": "\(response.id)"])
        var registered: RegisteredCredential?
        if let continuationToken = data.continuationToken {
            registered = try await api.completeRecovery(
                recoveryAttemptId: input.recoveryAttemptId,
                continuationToken: continuationToken,
                credential: response,
                name: input.credentialName
            )
        }
        return RecoveredCredentialOutput(
            credentialId: response.id,
            attestationObject: response.response.attestationObject.base64URL,
            clientDataJson: response.response.clientDataJSON.base64URL,
            userId: userId,
            registered: registered
        )
    }
}

extension RecoveryRegistrationData {
    /// The creation options these data describe, checked: a challenge of 16 to 1024 bytes, a user handle of 1 to 64
    /// bytes, both expiries after `time`, and the server's own options (when sent) for the same challenge, user
    /// handle and RP ID.
    public func creationOptions(at time: Date = Date()) throws(PasskeyError) -> PublicKeyCredentialCreationOptionsJSON {
        let data = self
        guard let challenge = try? Base64URL.decode(data.challenge), (16...1024).contains(challenge.count) else {
            throw PasskeyError(
                .invalidInput,
                "The recovery's registration data has no valid challenge (base64url of 16 to 1024 bytes)."
            )
        }
        guard let handle = try? Base64URL.decode(data.userHandle), (1...64).contains(handle.count) else {
            throw PasskeyError(
                .invalidInput,
                "The recovery's registration data has no valid user handle (base64url of 1 to 64 bytes)."
            )
        }
        if let userId = data.userId { try PasskeyClient.validateUserID(userId) }
        guard data.attemptExpiresAt > time else {
            throw PasskeyError(.recoveryAttemptExpired, "The recovery attempt has expired; ask for a new recovery.")
        }
        guard data.registrationExpiresAt > time else {
            throw PasskeyError(
                .recoveryPasskeyRegistrationExpired,
                "The time to create the replacement passkey has run out; ask for a new recovery."
            )
        }
        if let options = data.publicKey {
            guard options.challenge.bytes == challenge, options.user.id.bytes == handle,
                options.rp.id == nil || options.rp.id == data.rpId
            else {
                throw PasskeyError(
                    .recoveryRegistrationMismatch,
                    "The recovery's creation options are for another challenge, user handle or RP ID than its registration data; nothing was created."
                )
            }
            return options
        }
        let name = data.userId ?? data.userHandle
        do {
            return try CreationOptionsBuilder(relyingPartyID: data.rpId, relyingPartyName: data.rpId).build(
                user: PublicKeyCredentialUserEntityJSON(id: Base64URLBytes(handle), name: name, displayName: name),
                challenge: challenge
            )
        } catch {
            throw PasskeyError(
                .invalidInput,
                "The recovery's registration data cannot make creation options: \(error.reason)",
                cause: error
            )
        }
    }
}
