/// `RegistrationResponseJSON` (WebAuthn §5.1, `PublicKeyCredential.toJSON()` after `create()`).
public struct RegistrationResponseJSON: Sendable, Hashable, Codable {
    public var id: String
    public var rawId: Base64URLBytes
    public var response: AuthenticatorAttestationResponseJSON
    public var authenticatorAttachment: AuthenticatorAttachment?
    public var clientExtensionResults: [String: JSONValue]
    public var type: PublicKeyCredentialType

    public init(
        id: String,
        rawId: Base64URLBytes,
        response: AuthenticatorAttestationResponseJSON,
        authenticatorAttachment: AuthenticatorAttachment? = nil,
        clientExtensionResults: [String: JSONValue] = [:],
        type: PublicKeyCredentialType = .publicKey
    ) {
        self.id = id
        self.rawId = rawId
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = clientExtensionResults
        self.type = type
    }

    /// Decodes the JSON text of a registration response, bounded in size.
    public init(jsonBytes: [UInt8]) throws(WebAuthnError) {
        // The common shape is decoded without JSONDecoder; anything else (and every error) goes through it.
        if jsonBytes.count <= WebAuthnJSON.maximumSize, let decoded = Self(fastJSON: jsonBytes) {
            self = decoded
            return
        }
        self = try WebAuthnJSON.decode(Self.self, from: jsonBytes)
    }
}

/// `AuthenticatorAttestationResponseJSON` (§5.2.1).
public struct AuthenticatorAttestationResponseJSON: Sendable, Hashable, Codable {
    public var clientDataJSON: Base64URLBytes
    public var attestationObject: Base64URLBytes
    public var authenticatorData: Base64URLBytes?
    public var transports: [AuthenticatorTransport]?
    public var publicKey: Base64URLBytes?
    public var publicKeyAlgorithm: COSEAlgorithmIdentifier?

    public init(
        clientDataJSON: Base64URLBytes,
        attestationObject: Base64URLBytes,
        authenticatorData: Base64URLBytes? = nil,
        transports: [AuthenticatorTransport]? = nil,
        publicKey: Base64URLBytes? = nil,
        publicKeyAlgorithm: COSEAlgorithmIdentifier? = nil
    ) {
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.authenticatorData = authenticatorData
        self.transports = transports
        self.publicKey = publicKey
        self.publicKeyAlgorithm = publicKeyAlgorithm
    }
}
