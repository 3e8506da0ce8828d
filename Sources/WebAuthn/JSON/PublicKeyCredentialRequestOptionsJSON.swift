/// `PublicKeyCredentialRequestOptionsJSON` (WebAuthn §5.1): what the relying party sends to
/// `PublicKeyCredential.parseRequestOptionsFromJSON()` to start an authentication.
public struct PublicKeyCredentialRequestOptionsJSON: Sendable, Hashable, Codable {
    public var challenge: Base64URLBytes
    public var timeout: UInt32?
    public var rpId: String?
    public var allowCredentials: [PublicKeyCredentialDescriptorJSON]?
    public var userVerification: UserVerificationRequirement?
    public var hints: [PublicKeyCredentialHint]?
    public var extensions: [String: JSONValue]?

    public init(
        challenge: Base64URLBytes,
        timeout: UInt32? = nil,
        rpId: String? = nil,
        allowCredentials: [PublicKeyCredentialDescriptorJSON]? = nil,
        userVerification: UserVerificationRequirement? = nil,
        hints: [PublicKeyCredentialHint]? = nil,
        extensions: [String: JSONValue]? = nil
    ) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
        self.hints = hints
        self.extensions = extensions
    }
}
