extension AuthenticationCeremony {
    /// Verifies an authentication response against the credential record the relying party looked up
    /// by the response's `rawId` (§7.2 step 7): every step of WebAuthn §7.2.
    public func verify(
        _ response: AuthenticationResponseJSON,
        credential: CredentialRecord
    ) throws(WebAuthnError) -> VerifiedAuthentication {
        // §7.2 step 3.
        guard response.type == .publicKey else {
            throw WebAuthnError(.credentialTypeMismatch, "The credential type is '\(response.type)', not 'public-key'.")
        }
        let rawID = response.rawId.bytes
        guard response.id == response.rawId.base64URL else {
            throw WebAuthnError(
                .credentialIDMismatch,
                "The credential's id is not the base64url encoding of its rawId; send PublicKeyCredential.toJSON() unmodified."
            )
        }
        // §7.2 step 23 (attestation in assertions) is not implemented: request options never ask for it,
        // so a response that carries an attestation object is refused rather than half-verified.
        if response.response.attestationObject != nil {
            throw WebAuthnError(
                .unsupportedFeature,
                "The assertion carries an attestation object (§7.2 step 23), which this verifier does not support; do not request attestation in get()."
            )
        }
        // §7.2 step 5: the credential is one of those offered.
        if !allowCredentials.isEmpty, !allowCredentials.contains(rawID) {
            throw WebAuthnError(
                .credentialIDMismatch,
                "The credential used is not one of the allowCredentials offered for this sign-in."
            )
        }
        // §7.2 step 7: the record the relying party looked up is this credential's.
        guard credential.id == rawID else {
            throw WebAuthnError(.credentialIDMismatch, "The response is for another credential than the record given.")
        }
        // §7.2 step 6: the user owns the credential.
        let userHandle = response.response.userHandle.map(\.bytes).flatMap { $0.isEmpty ? nil : $0 }
        try verifyUser(userHandle, credential: credential)

        // §7.2 steps 9–14, 20.
        let (clientData, clientDataHash) = try ClientDataVerification(
            acceptedTypes: acceptedClientDataTypes,
            challenge: challenge,
            origins: origins
        ).verify(response.response.clientDataJSON.bytes)
        let authenticatorData = try AuthenticatorData(bytes: response.response.authenticatorData.bytes)
        // §7.2 steps 15–17.
        try AuthenticatorDataVerification(
            relyingPartyIDs: relyingPartyIDs,
            requireUserPresence: requireUserPresence,
            userVerification: userVerification,
            allowBackupEligible: allowBackupEligible
        ).verify(authenticatorData)
        // §7.2 step 18: BE is fixed at creation; a change means another credential or a broken authenticator.
        if let registered = credential.backupEligible, registered != authenticatorData.backupEligible {
            throw WebAuthnError(
                .backupFlagsInvalid,
                "The backup eligibility (BE) flag changed since registration (\(registered) → \(authenticatorData.backupEligible))."
            )
        }
        // §7.2 step 19: extension outputs are decoded by AuthenticatorData and returned, never trusted.
        // §7.2 step 21: the signature over authenticatorData || hash.
        guard
            credential.publicKey.isValidSignature(
                response.response.signature.bytes,
                for: authenticatorData.rawRepresentation + clientDataHash
            )
        else {
            throw WebAuthnError(
                .signatureInvalid,
                "The assertion signature does not verify with the credential's public key."
            )
        }
        // §7.2 step 22: the signature counter.
        var regressed = false
        if authenticatorData.signCount != 0 || credential.signCount != 0,
            authenticatorData.signCount <= credential.signCount
        {
            guard signCountPolicy == .reportRegression else {
                throw WebAuthnError(
                    .signCountRegression,
                    "The signature counter is \(authenticatorData.signCount), not above the stored \(credential.signCount): the authenticator may have been cloned."
                )
            }
            regressed = true
        }
        return VerifiedAuthentication(
            credentialID: rawID,
            signCount: regressed ? credential.signCount : authenticatorData.signCount,
            signCountRegressed: regressed,
            userVerified: authenticatorData.userVerified,
            backupEligible: authenticatorData.backupEligible,
            backupState: authenticatorData.backupState,
            userHandle: userHandle,
            authenticatorAttachment: response.authenticatorAttachment,
            authenticatorData: authenticatorData,
            clientData: clientData,
            clientExtensionResults: response.clientExtensionResults
        )
    }

    private func verifyUser(_ userHandle: [UInt8]?, credential: CredentialRecord) throws(WebAuthnError) {
        switch user {
        case .identified(let expected):
            if let owner = credential.userHandle, owner != expected {
                throw WebAuthnError(
                    .userHandleMismatch,
                    "The credential belongs to another user than the one signing in."
                )
            }
            if let userHandle, userHandle != expected {
                throw WebAuthnError(
                    .userHandleMismatch,
                    "The response's userHandle names another user than the one signing in."
                )
            }
        case .discoverable:
            guard let userHandle else {
                throw WebAuthnError(
                    .userHandleMismatch,
                    "A usernameless sign-in needs the response's userHandle, and it is empty; the credential is not discoverable."
                )
            }
            guard let owner = credential.userHandle, owner == userHandle else {
                throw WebAuthnError(
                    .userHandleMismatch,
                    "The response's userHandle is not the user this credential belongs to."
                )
            }
        case .credentialOnly:
            break
        }
    }
}
