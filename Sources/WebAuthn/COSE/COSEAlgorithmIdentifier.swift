/// A COSE algorithm identifier (IANA "COSE Algorithms" registry), as used in `pubKeyCredParams`
/// and in credential public keys (WebAuthn §5.8.5).
public struct COSEAlgorithmIdentifier: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// ECDSA with SHA-256 on P-256.
    public static let es256 = Self(rawValue: -7)
    /// EdDSA (Ed25519 in WebAuthn).
    public static let edDSA = Self(rawValue: -8)
    /// Ed25519, the fully specified identifier (RFC 9864).
    public static let ed25519 = Self(rawValue: -19)
    /// ECDSA with SHA-384 on P-384.
    public static let es384 = Self(rawValue: -35)
    /// ECDSA with SHA-512 on P-521.
    public static let es512 = Self(rawValue: -36)
    /// RSASSA-PSS with SHA-256.
    public static let ps256 = Self(rawValue: -37)
    /// RSASSA-PSS with SHA-384.
    public static let ps384 = Self(rawValue: -38)
    /// RSASSA-PSS with SHA-512.
    public static let ps512 = Self(rawValue: -39)
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    public static let rs256 = Self(rawValue: -257)
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    public static let rs384 = Self(rawValue: -258)
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    public static let rs512 = Self(rawValue: -259)
    /// RSASSA-PKCS1-v1_5 with SHA-1. Insecure; accepted only where policy allows it (old TPMs).
    public static let rs1 = Self(rawValue: -65535)

    /// Every algorithm this library can verify.
    public static let supported: [Self] = [
        .es256, .edDSA, .ed25519, .es384, .es512, .ps256, .ps384, .ps512, .rs256, .rs384, .rs512, .rs1,
    ]

    /// The algorithms accepted for credentials unless policy says otherwise (everything but RS1).
    public static let recommended: [Self] = [
        .es256, .edDSA, .ed25519, .es384, .es512, .ps256, .ps384, .ps512, .rs256, .rs384, .rs512,
    ]

    public var name: String {
        switch self {
        case .es256: "ES256"
        case .edDSA: "EdDSA"
        case .ed25519: "Ed25519"
        case .es384: "ES384"
        case .es512: "ES512"
        case .ps256: "PS256"
        case .ps384: "PS384"
        case .ps512: "PS512"
        case .rs256: "RS256"
        case .rs384: "RS384"
        case .rs512: "RS512"
        case .rs1: "RS1"
        default: "COSE(\(rawValue))"
        }
    }

    public var description: String { name }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(Int.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension COSEAlgorithmIdentifier {
    enum Family { case ecdsa, eddsa, rsaPKCS1, rsaPSS }
    enum Hash { case sha1, sha256, sha384, sha512 }

    var family: Family? {
        switch self {
        case .es256, .es384, .es512: .ecdsa
        case .edDSA, .ed25519: .eddsa
        case .rs1, .rs256, .rs384, .rs512: .rsaPKCS1
        case .ps256, .ps384, .ps512: .rsaPSS
        default: nil
        }
    }

    var hash: Hash {
        switch self {
        case .rs1: .sha1
        case .es384, .ps384, .rs384: .sha384
        case .es512, .ps512, .rs512: .sha512
        default: .sha256
        }
    }
}
