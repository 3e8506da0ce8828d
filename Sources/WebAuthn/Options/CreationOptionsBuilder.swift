/// Builds `PublicKeyCredentialCreationOptionsJSON` for a registration (WebAuthn §5.4), validated,
/// with defaults that suit passkeys. The same values then drive ``RegistrationCeremony/init(options:origins:attestation:)``.
public struct CreationOptionsBuilder: Sendable {
    public var relyingParty: PublicKeyCredentialRpEntity
    /// In order of preference; authenticators use the first they support.
    public var algorithms: [COSEAlgorithmIdentifier]
    /// Milliseconds; nil leaves the client's default.
    public var timeout: UInt32?
    public var residentKey: ResidentKeyRequirement
    public var userVerification: UserVerificationRequirement
    public var authenticatorAttachment: AuthenticatorAttachment?
    public var attestation: AttestationConveyancePreference
    public var attestationFormats: [AttestationFormat]
    public var hints: [PublicKeyCredentialHint]
    /// Ask the client whether it made a discoverable credential (the `credProps` extension).
    public var requestCredentialProperties: Bool

    public init(relyingPartyID: String, relyingPartyName: String) {
        self.relyingParty = PublicKeyCredentialRpEntity(id: relyingPartyID, name: relyingPartyName)
        self.algorithms = [.es256, .edDSA, .rs256]
        self.timeout = 120_000
        self.residentKey = .required
        self.userVerification = .preferred
        self.attestation = .none
        self.attestationFormats = []
        self.hints = []
        self.requestCredentialProperties = true
    }

    /// The options for one registration. `challenge` must be at least 16 random bytes (§13.4.3);
    /// `excludeCredentials` lists the user's existing credentials so an authenticator is not registered twice.
    public func build(
        user: PublicKeyCredentialUserEntityJSON,
        challenge: [UInt8],
        excludeCredentials: [PublicKeyCredentialDescriptorJSON] = []
    ) throws(WebAuthnError) -> PublicKeyCredentialCreationOptionsJSON {
        try relyingParty.id.map { id throws(WebAuthnError) in try RelyingPartyID.validate(id) }
        guard !relyingParty.name.isEmpty else {
            throw WebAuthnError(.invalidOptions, "The relying party needs a name to show to users.")
        }
        try OptionsValidation.challenge(challenge)
        guard (1...64).contains(user.id.bytes.count) else {
            throw WebAuthnError(
                .invalidOptions,
                "The user handle must be 1 to 64 bytes (§5.4.3); use 32 random bytes that identify no person."
            )
        }
        guard !user.name.isEmpty else {
            throw WebAuthnError(.invalidOptions, "The user needs a name (such as an email address or username).")
        }
        guard !algorithms.isEmpty, Set(algorithms).count == algorithms.count else {
            throw WebAuthnError(.invalidOptions, "Offer at least one algorithm, each once.")
        }
        guard algorithms.allSatisfy({ $0.family != nil }) else {
            throw WebAuthnError(
                .invalidOptions,
                "Offer only algorithms this library verifies: \(COSEAlgorithmIdentifier.supported.map(\.name))."
            )
        }
        return PublicKeyCredentialCreationOptionsJSON(
            rp: relyingParty,
            user: user,
            challenge: Base64URLBytes(challenge),
            pubKeyCredParams: algorithms.map { PublicKeyCredentialParameters(alg: $0) },
            timeout: timeout,
            excludeCredentials: excludeCredentials,
            authenticatorSelection: AuthenticatorSelectionCriteria(
                authenticatorAttachment: authenticatorAttachment,
                residentKey: residentKey,
                requireResidentKey: residentKey == .required,
                userVerification: userVerification
            ),
            hints: hints.isEmpty ? nil : hints,
            attestation: attestation,
            attestationFormats: attestationFormats.isEmpty ? nil : attestationFormats.map(\.rawValue),
            extensions: requestCredentialProperties ? ["credProps": .bool(true)] : nil
        )
    }
}

enum OptionsValidation {
    static func challenge(_ challenge: [UInt8]) throws(WebAuthnError) {
        guard challenge.count >= 16, challenge.count <= 64 else {
            throw WebAuthnError(
                .invalidOptions,
                "A challenge must be 16 to 64 random bytes (§13.4.3); this one has \(challenge.count)."
            )
        }
    }
}
