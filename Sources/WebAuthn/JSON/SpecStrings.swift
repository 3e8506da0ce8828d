/// WebAuthn's enumerations travel as DOMStrings, and clients must ignore values they do not know (§2.1.1).
/// Each is a string-backed struct, so unknown values decode and round-trip instead of failing.
public protocol WebAuthnStringValue: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension WebAuthnStringValue {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// §5.8.6
public struct UserVerificationRequirement: WebAuthnStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let required: Self = "required"
    public static let preferred: Self = "preferred"
    public static let discouraged: Self = "discouraged"
}

/// §5.4.6
public struct ResidentKeyRequirement: WebAuthnStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let required: Self = "required"
    public static let preferred: Self = "preferred"
    public static let discouraged: Self = "discouraged"
}

/// §5.4.5
public struct AuthenticatorAttachment: WebAuthnStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let platform: Self = "platform"
    public static let crossPlatform: Self = "cross-platform"
}

/// §5.4.7
public struct AttestationConveyancePreference: WebAuthnStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none: Self = "none"
    public static let indirect: Self = "indirect"
    public static let direct: Self = "direct"
    public static let enterprise: Self = "enterprise"
}

/// §5.8.4
public struct AuthenticatorTransport: WebAuthnStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let usb: Self = "usb"
    public static let nfc: Self = "nfc"
    public static let ble: Self = "ble"
    public static let smartCard: Self = "smart-card"
    public static let hybrid: Self = "hybrid"
    public static let `internal`: Self = "internal"
}

/// §5.8.7
public struct PublicKeyCredentialHint: WebAuthnStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let securityKey: Self = "security-key"
    public static let clientDevice: Self = "client-device"
    public static let hybrid: Self = "hybrid"
}

/// §5.8.2
public struct PublicKeyCredentialType: WebAuthnStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let publicKey: Self = "public-key"
}
