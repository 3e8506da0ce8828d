/// Builds `PublicKeyCredentialRequestOptionsJSON` for an authentication (WebAuthn §5.5), validated.
public struct RequestOptionsBuilder: Sendable {
    public var relyingPartyID: String
    /// Milliseconds; nil leaves the client's default.
    public var timeout: UInt32?
    public var userVerification: UserVerificationRequirement
    public var hints: [PublicKeyCredentialHint]

    public init(relyingPartyID: String) {
        self.relyingPartyID = relyingPartyID
        self.timeout = 120_000
        self.userVerification = .preferred
        self.hints = []
    }

    /// The options for one sign-in. An empty `allowCredentials` asks for a discoverable credential (usernameless).
    public func build(
        challenge: [UInt8],
        allowCredentials: [PublicKeyCredentialDescriptorJSON] = []
    ) throws(WebAuthnError) -> PublicKeyCredentialRequestOptionsJSON {
        try RelyingPartyID.validate(relyingPartyID)
        try OptionsValidation.challenge(challenge)
        return PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URLBytes(challenge),
            timeout: timeout,
            rpId: relyingPartyID,
            allowCredentials: allowCredentials.isEmpty ? nil : allowCredentials,
            userVerification: userVerification,
            hints: hints.isEmpty ? nil : hints
        )
    }
}
