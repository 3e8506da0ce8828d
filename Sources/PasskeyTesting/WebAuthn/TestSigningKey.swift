public import Crypto
public import CryptoExtras
import Foundation
import PasskeyClient
public import WebAuthn

/// A private key for building WebAuthn fixtures: it signs as an authenticator would and knows its COSE form.
public enum TestSigningKey: Sendable {
    case p256(P256.Signing.PrivateKey)
    case p384(P384.Signing.PrivateKey)
    case p521(P521.Signing.PrivateKey)
    case ed25519(Curve25519.Signing.PrivateKey)
    /// RSA with PKCS#1 v1.5 (`pss: false`, RS256) or PSS (`pss: true`, PS256).
    case rsa(_RSA.Signing.PrivateKey, pss: Bool)

    /// A new random key for `algorithm` (ES256, ES384, ES512, EdDSA, RS256 or PS256).
    public static func generate(_ algorithm: COSEAlgorithmIdentifier) -> TestSigningKey {
        switch algorithm {
        case .es384: .p384(P384.Signing.PrivateKey())
        case .es512: .p521(P521.Signing.PrivateKey())
        case .edDSA, .ed25519: .ed25519(Curve25519.Signing.PrivateKey())
        // Key generation only fails for unsupported sizes; 2048 bits always works.
        case .rs256: .rsa(try! _RSA.Signing.PrivateKey(keySize: .bits2048), pss: false)
        case .ps256: .rsa(try! _RSA.Signing.PrivateKey(keySize: .bits2048), pss: true)
        default: .p256(P256.Signing.PrivateKey())
        }
    }

    public var algorithm: COSEAlgorithmIdentifier {
        switch self {
        case .p256: .es256
        case .p384: .es384
        case .p521: .es512
        case .ed25519: .edDSA
        case .rsa(_, let pss): pss ? .ps256 : .rs256
        }
    }

    /// The signature WebAuthn expects: DER ECDSA, raw Ed25519, or raw RSA.
    public func sign(_ data: [UInt8]) -> [UInt8] {
        switch self {
        case .p256(let key): Array(try! key.signature(for: data).derRepresentation)
        case .p384(let key): Array(try! key.signature(for: data).derRepresentation)
        case .p521(let key): Array(try! key.signature(for: data).derRepresentation)
        case .ed25519(let key): Array(try! key.signature(for: data))
        case .rsa(let key, let pss):
            Array(try! key.signature(for: data, padding: pss ? .PSS : .insecurePKCS1v1_5).rawRepresentation)
        }
    }

    /// The public key as a COSE_Key map (CTAP2 canonical CBOR).
    public var coseKey: [UInt8] {
        let alg = CBORValue(algorithm.rawValue)
        let entries: [CBORMapEntry]
        switch self {
        case .p256(let key): entries = ec2(Array(key.publicKey.x963Representation), curve: 1)
        case .p384(let key): entries = ec2(Array(key.publicKey.x963Representation), curve: 2)
        case .p521(let key): entries = ec2(Array(key.publicKey.x963Representation), curve: 3)
        case .ed25519(let key):
            entries = [
                .init(CBORValue(1), CBORValue(1)), .init(CBORValue(3), alg), .init(CBORValue(-1), CBORValue(6)),
                .init(CBORValue(-2), .bytes(Array(key.publicKey.rawRepresentation))),
            ]
        case .rsa(let key, _):
            let primitives = try! key.publicKey.getKeyPrimitives()
            entries = [
                .init(CBORValue(1), CBORValue(3)), .init(CBORValue(3), alg),
                .init(CBORValue(-1), .bytes(Array(primitives.modulus))),
                .init(CBORValue(-2), .bytes(Array(primitives.publicExponent))),
            ]
        }
        return CBOREncoder.encode(.map(entries))
    }

    private func ec2(_ point: [UInt8], curve: Int) -> [CBORMapEntry] {
        COSEKeyEncoding.ec2Entries(uncompressedPoint: point, curve: curve, algorithm: algorithm)
    }
}
