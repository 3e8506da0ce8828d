import WebAuthn

/// What the Apple platform adapter asks AuthenticationServices for, worked out from a request on any platform
/// (so it is tested on Linux): which providers, the user verification and attestation preferences, and the
/// credential lists — nothing of the options is dropped.
public struct PlatformRequestPlan: Sendable, Hashable {
    /// `ASAuthorizationPublicKeyCredentialUserVerificationPreference` raw value.
    public var userVerificationPreference: String
    /// `ASAuthorizationPublicKeyCredentialAttestationKind` raw value (registration only).
    public var attestationPreference: String?
    /// Use the platform provider (iCloud Keychain and other passkey managers, and phones through hybrid).
    public var usesPlatformProvider: Bool
    /// Also offer security keys (the options hint `security-key` or ask for a cross-platform authenticator).
    public var usesSecurityKeyProvider: Bool
    public var excludedCredentialIDs: [[UInt8]]
    public var allowedCredentialIDs: [[UInt8]]
    /// The OS cannot take `excludeCredentials` (before iOS 17.4 / macOS 14.4): the adapter checks its own record
    /// of passkeys made here before asking.
    public var checksExclusionLocally: Bool

    public init(creation request: CredentialCreationRequest, osSupportsExcludedCredentials: Bool) {
        let options = request.options
        let selection = options.authenticatorSelection
        userVerificationPreference = UserVerificationRequirementValue(selection?.userVerification).rawValue
        attestationPreference = (options.attestation ?? .none).rawValue
        let providers = Self.providers(hints: options.hints ?? [], attachment: selection?.authenticatorAttachment)
        usesPlatformProvider = providers.platform
        usesSecurityKeyProvider = providers.securityKey
        excludedCredentialIDs = (options.excludeCredentials ?? []).map(\.id.bytes)
        allowedCredentialIDs = []
        checksExclusionLocally = !osSupportsExcludedCredentials && !excludedCredentialIDs.isEmpty
    }

    public init(assertion request: CredentialAssertionRequest) {
        let options = request.options
        userVerificationPreference = UserVerificationRequirementValue(options.userVerification).rawValue
        attestationPreference = nil
        let providers = Self.providers(hints: options.hints ?? [], attachment: nil)
        usesPlatformProvider = providers.platform
        usesSecurityKeyProvider = providers.securityKey
        excludedCredentialIDs = []
        allowedCredentialIDs = (options.allowCredentials ?? []).map(\.id.bytes)
        checksExclusionLocally = false
    }

    /// Hints are in order of preference (WebAuthn §5.8.7); the attachment, when given, limits the choice.
    static func providers(
        hints: [PublicKeyCredentialHint],
        attachment: AuthenticatorAttachment?
    ) -> (platform: Bool, securityKey: Bool) {
        switch attachment {
        case .platform?: return (true, false)
        case .crossPlatform?: return (hints.first == .securityKey ? false : true, true)
        default: return (hints.first != .securityKey || hints.count > 1, hints.contains(.securityKey))
        }
    }
}
