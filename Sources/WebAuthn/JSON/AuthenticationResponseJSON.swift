/// `AuthenticationResponseJSON` (WebAuthn §5.1, `PublicKeyCredential.toJSON()` after `get()`).
public struct AuthenticationResponseJSON: Sendable, Hashable, Codable {
    public var id: String
    public var rawId: Base64URLBytes
    public var response: AuthenticatorAssertionResponseJSON
    public var authenticatorAttachment: AuthenticatorAttachment?
    public var clientExtensionResults: [String: JSONValue]
    public var type: PublicKeyCredentialType

    public init(
        id: String,
        rawId: Base64URLBytes,
        response: AuthenticatorAssertionResponseJSON,
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

    /// Decodes the JSON text of an authentication response, bounded in size.
    public init(jsonBytes: [UInt8]) throws(WebAuthnError) {
        // The common shape is decoded without JSONDecoder; anything else (and every error) goes through it.
        if jsonBytes.count <= WebAuthnJSON.maximumSize, let decoded = Self(fastJSON: jsonBytes) {
            self = decoded
            return
        }
        self = try WebAuthnJSON.decode(Self.self, from: jsonBytes)
    }
}

/// `AuthenticatorAssertionResponseJSON` (§5.2.2).
public struct AuthenticatorAssertionResponseJSON: Sendable, Hashable, Codable {
    public var clientDataJSON: Base64URLBytes
    public var authenticatorData: Base64URLBytes
    public var signature: Base64URLBytes
    public var userHandle: Base64URLBytes?
    public var attestationObject: Base64URLBytes?

    public init(
        clientDataJSON: Base64URLBytes,
        authenticatorData: Base64URLBytes,
        signature: Base64URLBytes,
        userHandle: Base64URLBytes? = nil,
        attestationObject: Base64URLBytes? = nil
    ) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.attestationObject = attestationObject
    }
}
