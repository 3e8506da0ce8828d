/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn §5.1): what the relying party sends to
/// `PublicKeyCredential.parseCreationOptionsFromJSON()` to start a registration.
public struct PublicKeyCredentialCreationOptionsJSON: Sendable, Hashable, Codable {
    public var rp: PublicKeyCredentialRpEntity
    public var user: PublicKeyCredentialUserEntityJSON
    public var challenge: Base64URLBytes
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    public var timeout: UInt32?
    public var excludeCredentials: [PublicKeyCredentialDescriptorJSON]?
    public var authenticatorSelection: AuthenticatorSelectionCriteria?
    public var hints: [PublicKeyCredentialHint]?
    public var attestation: AttestationConveyancePreference?
    public var attestationFormats: [String]?
    public var extensions: [String: JSONValue]?

    public init(
        rp: PublicKeyCredentialRpEntity,
        user: PublicKeyCredentialUserEntityJSON,
        challenge: Base64URLBytes,
        pubKeyCredParams: [PublicKeyCredentialParameters],
        timeout: UInt32? = nil,
        excludeCredentials: [PublicKeyCredentialDescriptorJSON]? = nil,
        authenticatorSelection: AuthenticatorSelectionCriteria? = nil,
        hints: [PublicKeyCredentialHint]? = nil,
        attestation: AttestationConveyancePreference? = nil,
        attestationFormats: [String]? = nil,
        extensions: [String: JSONValue]? = nil
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.hints = hints
        self.attestation = attestation
        self.attestationFormats = attestationFormats
        self.extensions = extensions
    }
}

/// `PublicKeyCredentialRpEntity` (§5.4.2).
public struct PublicKeyCredentialRpEntity: Sendable, Hashable, Codable {
    public var id: String?
    public var name: String
    public init(id: String?, name: String) {
        self.id = id
        self.name = name
    }
}

/// `PublicKeyCredentialUserEntityJSON` (§5.4.3).
public struct PublicKeyCredentialUserEntityJSON: Sendable, Hashable, Codable {
    /// The user handle: at most 64 random bytes that identify no person.
    public var id: Base64URLBytes
    public var name: String
    public var displayName: String
    public init(id: Base64URLBytes, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}

/// `PublicKeyCredentialParameters` (§5.3).
public struct PublicKeyCredentialParameters: Sendable, Hashable, Codable {
    public var type: PublicKeyCredentialType
    public var alg: COSEAlgorithmIdentifier
    public init(type: PublicKeyCredentialType = .publicKey, alg: COSEAlgorithmIdentifier) {
        self.type = type
        self.alg = alg
    }
}

/// `PublicKeyCredentialDescriptorJSON` (§5.8.3).
public struct PublicKeyCredentialDescriptorJSON: Sendable, Hashable, Codable {
    public var id: Base64URLBytes
    public var type: PublicKeyCredentialType
    public var transports: [AuthenticatorTransport]?
    public init(
        id: Base64URLBytes,
        type: PublicKeyCredentialType = .publicKey,
        transports: [AuthenticatorTransport]? = nil
    ) {
        self.id = id
        self.type = type
        self.transports = transports
    }
}

/// `AuthenticatorSelectionCriteria` (§5.4.4).
public struct AuthenticatorSelectionCriteria: Sendable, Hashable, Codable {
    public var authenticatorAttachment: AuthenticatorAttachment?
    public var residentKey: ResidentKeyRequirement?
    public var requireResidentKey: Bool?
    public var userVerification: UserVerificationRequirement?
    public init(
        authenticatorAttachment: AuthenticatorAttachment? = nil,
        residentKey: ResidentKeyRequirement? = nil,
        requireResidentKey: Bool? = nil,
        userVerification: UserVerificationRequirement? = nil
    ) {
        self.authenticatorAttachment = authenticatorAttachment
        self.residentKey = residentKey
        self.requireResidentKey = requireResidentKey
        self.userVerification = userVerification
    }
}
