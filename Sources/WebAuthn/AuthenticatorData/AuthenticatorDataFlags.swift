/// The flags byte of authenticator data (WebAuthn §6.1).
public struct AuthenticatorDataFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0, UP: the user was present.
    public static let userPresent = Self(rawValue: 1 << 0)
    /// Bit 2, UV: the user was verified.
    public static let userVerified = Self(rawValue: 1 << 2)
    /// Bit 3, BE: the credential may be backed up (a synced passkey).
    public static let backupEligible = Self(rawValue: 1 << 3)
    /// Bit 4, BS: the credential is backed up now.
    public static let backupState = Self(rawValue: 1 << 4)
    /// Bit 6, AT: attested credential data follows.
    public static let attestedCredentialData = Self(rawValue: 1 << 6)
    /// Bit 7, ED: extension data follows.
    public static let extensionData = Self(rawValue: 1 << 7)
}
