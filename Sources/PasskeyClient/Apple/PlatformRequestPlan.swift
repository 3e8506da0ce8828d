public import WebAuthn

/// What the Apple platform adapter asks AuthenticationServices for, worked out from a request on any platform
/// (so it is tested on Linux): which providers, the user verification, attestation and resident key
/// preferences, the algorithms, and the credential lists with their transports.
///
/// The options' `timeout` is not passed: the system has no such setting, and ``WebAuthnClient`` enforces it by
/// cancelling the request, which closes the sheet. What the system cannot take — the client extensions
/// (``extensionsNotPassed``), `attestationFormats`, and `pubKeyCredParams` for platform passkeys (always ES256) —
/// is listed in docs/sdk.md; clients may ignore extensions they do not support (WebAuthn §9).
public struct PlatformRequestPlan: Sendable, Hashable {
    /// A credential of an exclude or allow list.
    public struct CredentialDescriptor: Sendable, Hashable {
        public var id: [UInt8]
        /// The descriptor's transports that security keys use (`usb`, `nfc`, `ble`); nil when it names none of
        /// them, so every transport the system supports is tried (transports are hints, §5.8.3).
        public var securityKeyTransports: [AuthenticatorTransport]?

        public init(id: [UInt8], securityKeyTransports: [AuthenticatorTransport]?) {
            self.id = id
            self.securityKeyTransports = securityKeyTransports
        }

        init(_ descriptor: PublicKeyCredentialDescriptorJSON) {
            id = descriptor.id.bytes
            let usable = (descriptor.transports ?? []).filter { [.usb, .nfc, .ble].contains($0) }
            securityKeyTransports = usable.isEmpty ? nil : usable
        }
    }

    /// `ASAuthorizationPublicKeyCredentialUserVerificationPreference` raw value.
    public var userVerificationPreference: String
    /// `ASAuthorizationPublicKeyCredentialAttestationKind` raw value (registration only).
    public var attestationPreference: String?
    /// `ASAuthorizationPublicKeyCredentialResidentKeyPreference` raw value for security keys (registration
    /// only): `residentKey`, or `requireResidentKey` when that is absent (§5.4.4). Platform passkeys are always
    /// discoverable.
    public var residentKeyPreference: String?
    /// The COSE algorithms offered to security keys, in the relying party's order (registration only).
    public var algorithms: [Int]
    /// Use the platform provider (iCloud Keychain and other passkey managers, and phones through hybrid).
    public var usesPlatformProvider: Bool
    /// Offer security keys (the options hint `security-key` or ask for a cross-platform authenticator).
    public var usesSecurityKeyProvider: Bool
    public var excludedCredentials: [CredentialDescriptor]
    public var allowedCredentials: [CredentialDescriptor]
    /// The OS cannot take `excludeCredentials` (before iOS 17.4): the adapter checks its own record of passkeys
    /// made here before asking.
    public var checksExclusionLocally: Bool
    /// The client extensions the options ask for, none of which is passed to the system.
    public var extensionsNotPassed: [String]

    public var excludedCredentialIDs: [[UInt8]] { excludedCredentials.map(\.id) }
    public var allowedCredentialIDs: [[UInt8]] { allowedCredentials.map(\.id) }

    /// - Parameters:
    ///   - osSupportsExcludedCredentials: the platform request takes `excludedCredentials` (iOS 17.4, macOS 14).
    ///   - osSupportsSecurityKeys: the OS has the security key provider (not visionOS, tvOS or watchOS).
    public init(
        creation request: CredentialCreationRequest,
        osSupportsExcludedCredentials: Bool,
        osSupportsSecurityKeys: Bool = true
    ) {
        let options = request.options
        let selection = options.authenticatorSelection
        userVerificationPreference = UserVerificationRequirementValue(selection?.userVerification).rawValue
        attestationPreference = (options.attestation ?? .none).rawValue
        residentKeyPreference = Self.residentKey(selection).rawValue
        algorithms = options.pubKeyCredParams.filter { $0.type == .publicKey }.map(\.alg.rawValue)
        let providers = Self.providers(
            hints: options.hints ?? [],
            attachment: selection?.authenticatorAttachment,
            securityKeys: osSupportsSecurityKeys
        )
        // Platform passkeys are ES256 keys; a relying party that does not accept ES256 would refuse them.
        let acceptsES256 = algorithms.isEmpty || algorithms.contains(COSEAlgorithmIdentifier.es256.rawValue)
        usesPlatformProvider = providers.platform && acceptsES256
        usesSecurityKeyProvider = providers.securityKey
        excludedCredentials = (options.excludeCredentials ?? []).map(CredentialDescriptor.init)
        allowedCredentials = []
        checksExclusionLocally = !osSupportsExcludedCredentials && !excludedCredentials.isEmpty
        extensionsNotPassed = (options.extensions ?? [:]).keys.sorted()
    }

    public init(assertion request: CredentialAssertionRequest, osSupportsSecurityKeys: Bool = true) {
        let options = request.options
        userVerificationPreference = UserVerificationRequirementValue(options.userVerification).rawValue
        attestationPreference = nil
        residentKeyPreference = nil
        algorithms = []
        let providers = Self.providers(
            hints: options.hints ?? [],
            attachment: nil,
            securityKeys: osSupportsSecurityKeys
        )
        usesPlatformProvider = providers.platform
        usesSecurityKeyProvider = providers.securityKey
        excludedCredentials = []
        allowedCredentials = (options.allowCredentials ?? []).map(CredentialDescriptor.init)
        checksExclusionLocally = false
        extensionsNotPassed = (options.extensions ?? [:]).keys.sorted()
    }

    /// Fails with `HARDWARE_NOT_AVAILABLE` when no provider of this OS can answer the request.
    public func requireProvider() throws(PasskeyError) {
        guard usesPlatformProvider || usesSecurityKeyProvider else {
            throw PasskeyError(
                .hardwareNotAvailable,
                "No authenticator of this device can answer the request: it asks for security keys, which this OS does not offer, or for algorithms platform passkeys do not use (they are ES256)."
            )
        }
    }

    /// Hints are in order of preference (WebAuthn §5.8.7); the attachment, when given, limits the choice. A
    /// cross-platform request is offered to security keys, and to the platform provider only with the `hybrid`
    /// hint (phones through hybrid are reached through it; it cannot be limited to them).
    static func providers(
        hints: [PublicKeyCredentialHint],
        attachment: AuthenticatorAttachment?,
        securityKeys: Bool
    ) -> (platform: Bool, securityKey: Bool) {
        switch attachment {
        case .platform?: return (true, false)
        case .crossPlatform?: return (hints.contains(.hybrid), securityKeys)
        default: return (hints.first != .securityKey || hints.count > 1, securityKeys && hints.contains(.securityKey))
        }
    }

    /// §5.4.4: `residentKey`, or, when it is absent (or a value this SDK does not know), `requireResidentKey`.
    static func residentKey(_ selection: AuthenticatorSelectionCriteria?) -> ResidentKeyRequirement {
        switch selection?.residentKey {
        case .required?, .preferred?, .discouraged?: return selection?.residentKey ?? .discouraged
        default: return selection?.requireResidentKey == true ? .required : .discouraged
        }
    }
}
