public import WebAuthn

/// Encodes the attestation object (WebAuthn §6.5.4): the CBOR map `{fmt, attStmt, authData}` in the CTAP2
/// canonical form.
public enum AttestationObjectEncoding {
    public static func encode(format: String, statement: [CBORMapEntry], authenticatorData: [UInt8]) -> [UInt8] {
        CBOREncoder.encode(
            .map([
                CBORMapEntry(.text("fmt"), .text(format)), CBORMapEntry(.text("attStmt"), .map(statement)),
                CBORMapEntry(.text("authData"), .bytes(authenticatorData)),
            ])
        )
    }

    /// The statement of `packed` self attestation (§8.2): the credential key signs `authData ‖ clientDataHash`.
    public static func packedSelfStatement(algorithm: COSEAlgorithmIdentifier, signature: [UInt8]) -> [CBORMapEntry] {
        [CBORMapEntry(.text("alg"), CBORValue(algorithm.rawValue)), CBORMapEntry(.text("sig"), .bytes(signature))]
    }
}

/// Encodes public keys as COSE_Key maps (RFC 9053), as authenticators put them in attested credential data.
public enum COSEKeyEncoding {
    /// An EC2 key from its uncompressed point (`04 ‖ x ‖ y`); `curve` is the COSE curve (1 P-256, 2 P-384, 3 P-521).
    public static func ec2(uncompressedPoint point: [UInt8], curve: Int, algorithm: COSEAlgorithmIdentifier) -> [UInt8]
    {
        CBOREncoder.encode(.map(ec2Entries(uncompressedPoint: point, curve: curve, algorithm: algorithm)))
    }

    /// The map entries of ``ec2(uncompressedPoint:curve:algorithm:)``.
    public static func ec2Entries(
        uncompressedPoint point: [UInt8],
        curve: Int,
        algorithm: COSEAlgorithmIdentifier
    ) -> [CBORMapEntry] {
        let size = (point.count - 1) / 2
        return [
            CBORMapEntry(CBORValue(1), CBORValue(2)), CBORMapEntry(CBORValue(3), CBORValue(algorithm.rawValue)),
            CBORMapEntry(CBORValue(-1), CBORValue(curve)), CBORMapEntry(CBORValue(-2), .bytes(Array(point[1...size]))),
            CBORMapEntry(CBORValue(-3), .bytes(Array(point[(size + 1)...]))),
        ]
    }
}
