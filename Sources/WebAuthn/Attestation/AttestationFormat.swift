/// An attestation statement format identifier (WebAuthn §8, IANA "WebAuthn Attestation Statement Format
/// Identifiers"). Matched case-sensitively (§7.1 step 20).
public struct AttestationFormat: WebAuthnStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let none: Self = "none"
    public static let packed: Self = "packed"
    public static let tpm: Self = "tpm"
    public static let androidKey: Self = "android-key"
    public static let androidSafetyNet: Self = "android-safetynet"
    public static let fidoU2F: Self = "fido-u2f"
    public static let apple: Self = "apple"
    public static let compound: Self = "compound"

    /// Every format this library verifies.
    public static let supported: [Self] = [
        .none, .packed, .tpm, .androidKey, .androidSafetyNet, .fidoU2F, .apple, .compound,
    ]
}

/// The attestation type a verified statement establishes (WebAuthn §6.5.4).
public struct AttestationType: WebAuthnStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// No attestation information (`none`).
    public static let none: Self = "none"
    /// Self attestation: signed with the credential private key.
    public static let `self`: Self = "self"
    /// Basic attestation: an attestation key pair shared by a batch of authenticators.
    public static let basic: Self = "basic"
    /// Attestation CA: a per-credential certificate from an attestation CA (TPM AIK).
    public static let attCA: Self = "attCA"
    /// Anonymization CA: a per-credential certificate from the vendor's anonymization CA (Apple).
    public static let anonCA: Self = "anonCA"
}
