/// The status of an authenticator model in FIDO metadata (FIDO Metadata Service §3.1.4, `AuthenticatorStatus`).
/// A string-backed struct, so statuses added by later versions of the service decode and are kept.
public struct AuthenticatorStatus: WebAuthnStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let notFIDOCertified: Self = "NOT_FIDO_CERTIFIED"
    public static let fidoCertified: Self = "FIDO_CERTIFIED"
    /// Malware can bypass user verification: a model whose user verification cannot be relied on.
    public static let userVerificationBypass: Self = "USER_VERIFICATION_BYPASS"
    /// An attestation key of the model is known to be compromised: its attestations prove nothing.
    public static let attestationKeyCompromise: Self = "ATTESTATION_KEY_COMPROMISE"
    /// The model has a weakness that allows its credential keys to be extracted remotely.
    public static let userKeyRemoteCompromise: Self = "USER_KEY_REMOTE_COMPROMISE"
    /// The model has a weakness that allows its credential keys to be extracted by someone holding it.
    public static let userKeyPhysicalCompromise: Self = "USER_KEY_PHYSICAL_COMPROMISE"
    public static let updateAvailable: Self = "UPDATE_AVAILABLE"
    /// The FIDO Alliance revoked the model (its certification, or its trust for security reasons).
    public static let revoked: Self = "REVOKED"
    public static let selfAssertionSubmitted: Self = "SELF_ASSERTION_SUBMITTED"
    public static let fidoCertifiedL1: Self = "FIDO_CERTIFIED_L1"
    public static let fidoCertifiedL1Plus: Self = "FIDO_CERTIFIED_L1plus"
    public static let fidoCertifiedL2: Self = "FIDO_CERTIFIED_L2"
    public static let fidoCertifiedL2Plus: Self = "FIDO_CERTIFIED_L2plus"
    public static let fidoCertifiedL3: Self = "FIDO_CERTIFIED_L3"
    public static let fidoCertifiedL3Plus: Self = "FIDO_CERTIFIED_L3plus"

    /// The statuses that mean an authenticator of the model must not be registered.
    public static let compromised: Set<Self> = [
        .userVerificationBypass, .attestationKeyCompromise, .userKeyRemoteCompromise, .userKeyPhysicalCompromise,
        .revoked,
    ]

    /// Whether this status is one of ``compromised``.
    public var isCompromised: Bool { Self.compromised.contains(self) }
}
