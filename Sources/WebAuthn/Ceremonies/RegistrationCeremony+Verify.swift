public import Foundation

extension RegistrationCeremony {
    /// Verifies a registration response: every step of WebAuthn §7.1 that concerns the response.
    /// §7.1 step 25 (the credential id is not yet registered) needs the relying party's storage and is the caller's.
    public func verify(
        _ response: RegistrationResponseJSON,
        at time: Date
    ) async throws(WebAuthnError) -> VerifiedRegistration {
        // §7.1 step 3: a public-key credential whose id is the base64url of rawId.
        guard response.type == .publicKey else {
            throw WebAuthnError(.credentialTypeMismatch, "The credential type is '\(response.type)', not 'public-key'.")
        }
        guard response.id == response.rawId.base64URL else {
            throw WebAuthnError(
                .credentialIDMismatch,
                "The credential's id is not the base64url encoding of its rawId; send PublicKeyCredential.toJSON() unmodified."
            )
        }
        // §7.1 steps 5–11.
        let (clientData, clientDataHash) = try ClientDataVerification(
            acceptedTypes: acceptedClientDataTypes,
            challenge: challenge,
            origins: origins
        ).verify(response.response.clientDataJSON.bytes)
        // §7.1 step 12: decode the attestation object.
        let attestationObject = try AttestationObject(bytes: response.response.attestationObject.bytes)
        let authenticatorData = attestationObject.authenticatorData
        // §7.1 steps 13–17.
        try AuthenticatorDataVerification(
            relyingPartyIDs: relyingPartyIDs,
            requireUserPresence: requireUserPresence,
            userVerification: userVerification,
            allowBackupEligible: allowBackupEligible
        ).verify(authenticatorData)
        guard let credential = authenticatorData.attestedCredentialData else {
            throw WebAuthnError(
                .attestedCredentialDataMissing,
                "The authenticator data of a registration must carry attested credential data (AT flag)."
            )
        }
        // The credential id in authenticator data is the one the client reported (binds rawId to the attestation).
        guard credential.credentialID == response.rawId.bytes else {
            throw WebAuthnError(
                .credentialIDMismatch,
                "rawId differs from the credential id in the authenticator data."
            )
        }
        // §7.1 step 18: the algorithm is one the relying party offered.
        guard allowedAlgorithms.contains(credential.credentialPublicKey.algorithm) else {
            throw WebAuthnError(
                .algorithmNotAllowed,
                "The credential uses \(credential.credentialPublicKey.algorithm.name), which is not among the offered algorithms \(allowedAlgorithms.map(\.name))."
            )
        }
        // §7.1 step 19: extension outputs are decoded by AuthenticatorData and returned, never trusted.
        // §7.1 steps 20–23: the attestation statement and its trust.
        let attestation = try await AttestationVerification.verify(
            format: attestationObject.format,
            fields: attestationObject.statement,
            authenticatorData: authenticatorData,
            credential: credential,
            clientDataHash: clientDataHash,
            policy: self.attestation,
            time: time
        )
        // §7.1 step 24: credential ids are at most 1023 bytes (checked while decoding attested credential data).
        // §7.1 step 27: reject untrusted attestation when policy requires trust.
        if self.attestation.requireTrustedAttestation, !attestation.trusted {
            throw WebAuthnError(
                .attestationUntrusted,
                "The relying party requires trusted attestation, and this \(attestation.format.rawValue) attestation (\(attestation.type.rawValue)) does not verify to a trust anchor."
            )
        }
        return VerifiedRegistration(
            credentialID: credential.credentialID,
            credentialPublicKey: credential.credentialPublicKey,
            signCount: authenticatorData.signCount,
            aaguid: credential.aaguid,
            attestation: attestation,
            userVerified: authenticatorData.userVerified,
            backupEligible: authenticatorData.backupEligible,
            backupState: authenticatorData.backupState,
            transports: response.response.transports ?? [],
            authenticatorAttachment: response.authenticatorAttachment,
            authenticatorData: authenticatorData,
            clientData: clientData,
            clientExtensionResults: response.clientExtensionResults
        )
    }
}
