import Crypto
import CryptoExtras
import Foundation
import X509

/// A public key ready to verify signatures: built once from a COSE key or a certificate.
enum SignatureVerifier: Sendable {
    case p256(P256.Signing.PublicKey)
    case p384(P384.Signing.PublicKey)
    case p521(P521.Signing.PublicKey)
    case ed25519(Curve25519.Signing.PublicKey)
    case rsa(_RSA.Signing.PublicKey)

    init(_ parameters: COSEKey.Parameters, algorithm: COSEAlgorithmIdentifier) throws(WebAuthnError) {
        func invalid(_ reason: String) -> WebAuthnError { WebAuthnError(.invalidCOSEKey, reason) }
        switch parameters {
        case .ec2(let curve, let x, let y):
            let size = curve == .p256 ? 32 : curve == .p384 ? 48 : 66
            guard x.count == size, y.count == size else {
                throw invalid("Each coordinate of a \(curve) key must be \(size) bytes.")
            }
            let point = [0x04] + x + y
            do {
                switch curve {
                case .p256: self = .p256(try P256.Signing.PublicKey(x963Representation: point))
                case .p384: self = .p384(try P384.Signing.PublicKey(x963Representation: point))
                case .p521: self = .p521(try P521.Signing.PublicKey(x963Representation: point))
                case .ed25519: throw invalid("Ed25519 is not an EC2 curve.")
                }
            } catch let error as WebAuthnError {
                throw error
            } catch {
                throw invalid("The EC2 point (x, y) is not a valid point on \(curve).")
            }
        case .okp(_, let x):
            guard x.count == 32, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else {
                throw invalid("An Ed25519 public key must be 32 bytes.")
            }
            self = .ed25519(key)
        case .rsa(let n, let e):
            let modulus = n.drop { $0 == 0 }
            let bits = modulus.first.map { modulus.count * 8 - $0.leadingZeroBitCount } ?? 0
            guard bits >= 2048 else {
                throw WebAuthnError(
                    .weakKey,
                    "RSA keys must have a modulus of at least 2048 bits; this one has \(bits)."
                )
            }
            guard let key = try? _RSA.Signing.PublicKey(n: n, e: e) else {
                throw invalid("The RSA modulus or exponent is not valid.")
            }
            self = .rsa(key)
        }
    }

    /// The verifier for a certificate's subject public key.
    init(_ key: Certificate.PublicKey) throws(WebAuthnError) {
        if let k = P256.Signing.PublicKey(key) {
            self = .p256(k)
        } else if let k = P384.Signing.PublicKey(key) {
            self = .p384(k)
        } else if let k = P521.Signing.PublicKey(key) {
            self = .p521(k)
        } else if let k = Curve25519.Signing.PublicKey(key) {
            self = .ed25519(k)
        } else if let k = _RSA.Signing.PublicKey(key) {
            self = .rsa(k)
        } else {
            throw WebAuthnError(.attestationCertificateInvalid, "The certificate's public key type is not supported.")
        }
    }

    /// Whether the key type can produce signatures of `algorithm` at all.
    func supports(_ algorithm: COSEAlgorithmIdentifier) -> Bool {
        switch (self, algorithm.family) {
        case (.p256, .ecdsa), (.p384, .ecdsa), (.p521, .ecdsa), (.ed25519, .eddsa), (.rsa, .rsaPKCS1), (.rsa, .rsaPSS):
            true
        default: false
        }
    }

    func isValidSignature(_ signature: [UInt8], for data: [UInt8], algorithm: COSEAlgorithmIdentifier) -> Bool {
        switch self {
        case .p256(let key):
            guard let sig = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return Self.withDigest(data, algorithm.hash) { key.isValidSignature(sig, for: $0) }
        case .p384(let key):
            guard let sig = try? P384.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return Self.withDigest(data, algorithm.hash) { key.isValidSignature(sig, for: $0) }
        case .p521(let key):
            guard let sig = try? P521.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return Self.withDigest(data, algorithm.hash) { key.isValidSignature(sig, for: $0) }
        case .ed25519(let key):
            return key.isValidSignature(signature, for: data)
        case .rsa(let key):
            let padding: _RSA.Signing.Padding = algorithm.family == .rsaPSS ? .PSS : .insecurePKCS1v1_5
            let sig = _RSA.Signing.RSASignature(rawRepresentation: signature)
            return Self.withDigest(data, algorithm.hash) { key.isValidSignature(sig, for: $0, padding: padding) }
        }
    }

    private static func withDigest(
        _ data: [UInt8],
        _ hash: COSEAlgorithmIdentifier.Hash,
        _ body: (any Digest) -> Bool
    ) -> Bool {
        switch hash {
        case .sha1: body(Insecure.SHA1.hash(data: data))
        case .sha256: body(SHA256.hash(data: data))
        case .sha384: body(SHA384.hash(data: data))
        case .sha512: body(SHA512.hash(data: data))
        }
    }
}

extension SignatureVerifier {
    /// A canonical encoding of the public key, for comparing keys from different sources.
    var publicKeyBytes: [UInt8] {
        switch self {
        case .p256(let k): Array(k.x963Representation)
        case .p384(let k): Array(k.x963Representation)
        case .p521(let k): Array(k.x963Representation)
        case .ed25519(let k): Array(k.rawRepresentation)
        case .rsa(let k): Array(k.pkcs1DERRepresentation)
        }
    }
}
