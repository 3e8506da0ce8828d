import Foundation
import WebAuthn

/// COSE public keys.
extension InspectionReport {
    mutating func coseKey(_ key: COSEKey, depth: Int) {
        let keyType =
            switch key.keyType {
            case .ec2: "EC2 (2)"
            case .okp: "OKP (1)"
            case .rsa: "RSA (3)"
            }
        field("kty", keyType, depth: depth)
        field("alg", Self.algorithm(key.algorithm), depth: depth)
        switch key.parameters {
        case .ec2(let curve, _, _), .okp(let curve, _):
            field("crv", "\(Self.curveName(curve)) (\(curve.rawValue))", depth: depth)
            field("key size", "\(Self.curveBits(curve)) bits", depth: depth)
        case .rsa(let n, let e):
            field("key size", "\(Self.bitLength(n)) bits", depth: depth)
            field(
                "exponent",
                e.count <= 8 ? String(e.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) : Self.hex(e),
                depth: depth
            )
        }
        field("base64url", Base64URL.encode(key.cborRepresentation) + "\n(COSE; pass it to --public-key)", depth: depth)
    }

    static func curveName(_ curve: COSEKey.Curve) -> String {
        switch curve {
        case .p256: "P-256"
        case .p384: "P-384"
        case .p521: "P-521"
        case .ed25519: "Ed25519"
        }
    }

    static func curveBits(_ curve: COSEKey.Curve) -> Int {
        switch curve {
        case .p256, .ed25519: 256
        case .p384: 384
        case .p521: 521
        }
    }

    static func bitLength(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.count - first - 1) * 8 + (8 - bytes[first].leadingZeroBitCount)
    }
}
