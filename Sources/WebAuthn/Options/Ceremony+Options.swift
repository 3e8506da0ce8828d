extension RegistrationCeremony {
    /// The ceremony that verifies the response to `options`: same challenge, RP ID, algorithms and
    /// user-verification requirement, so the two cannot drift apart.
    public init(
        options: PublicKeyCredentialCreationOptionsJSON,
        origins: OriginPolicy,
        attestation: AttestationPolicy = AttestationPolicy()
    ) throws(WebAuthnError) {
        guard let rpID = options.rp.id else {
            throw WebAuthnError(
                .invalidOptions,
                "The creation options have no rp.id; set it so the response can be checked against it."
            )
        }
        self.init(
            challenge: options.challenge.bytes,
            relyingPartyID: rpID,
            origins: origins,
            userVerification: options.authenticatorSelection?.userVerification ?? .preferred,
            allowedAlgorithms: options.pubKeyCredParams.map(\.alg),
            attestation: attestation
        )
    }
}

extension AuthenticationCeremony {
    /// The ceremony that verifies the response to `options`.
    public init(
        options: PublicKeyCredentialRequestOptionsJSON,
        origins: OriginPolicy,
        user: UserIdentification
    ) throws(WebAuthnError) {
        guard let rpID = options.rpId else {
            throw WebAuthnError(
                .invalidOptions,
                "The request options have no rpId; set it so the response can be checked against it."
            )
        }
        self.init(
            challenge: options.challenge.bytes,
            relyingPartyID: rpID,
            origins: origins,
            user: user,
            userVerification: options.userVerification ?? .preferred,
            allowCredentials: options.allowCredentials?.map(\.id.bytes) ?? []
        )
    }
}
