public import WebAuthn

/// Where a credential the system returned came from, and so what the adapter reports for it: the attachment
/// the system states for platform provider credentials (a phone's passkey used through hybrid is
/// `cross-platform`, not `platform`), and `cross-platform` for security keys.
public enum PlatformCredentialSource: Sendable, Hashable {
    /// The platform provider, with the credential's `attachment` as the system reports it (iOS 16.6, macOS 13.5).
    case platformProvider(attachment: AuthenticatorAttachment)
    /// The security key provider.
    case securityKeyProvider

    /// `authenticatorAttachment` of the response.
    public var attachment: AuthenticatorAttachment {
        switch self {
        case .platformProvider(let attachment): return attachment
        case .securityKeyProvider: return .crossPlatform
        }
    }

    /// `transports` of a registration response: this device's passkeys can also be used from other devices
    /// through hybrid; a passkey made on a phone through hybrid is reached through hybrid. A security key's
    /// transports are not reported by the system on every supported version, so none are claimed.
    public var registrationTransports: [AuthenticatorTransport]? {
        switch self {
        case .platformProvider(let attachment):
            return attachment == .crossPlatform ? [.hybrid] : [.internal, .hybrid]
        case .securityKeyProvider:
            return nil
        }
    }
}
