/// A credential public key in COSE_Key form (RFC 9052 §7, WebAuthn §5.8.5), parsed and checked:
/// kty, crv and alg agree, EC points lie on their curve, RSA moduli have at least 2048 bits.
public struct COSEKey: Sendable, Hashable {
    public enum KeyType: Int, Sendable, Hashable {
        case okp = 1
        case ec2 = 2
        case rsa = 3
    }

    public enum Curve: Int, Sendable, Hashable {
        case p256 = 1
        case p384 = 2
        case p521 = 3
        case ed25519 = 6
    }

    /// The key parameters that matter for verification.
    public enum Parameters: Sendable, Hashable {
        case ec2(curve: Curve, x: [UInt8], y: [UInt8])
        case okp(curve: Curve, x: [UInt8])
        case rsa(n: [UInt8], e: [UInt8])
    }

    public let algorithm: COSEAlgorithmIdentifier
    public let parameters: Parameters
    /// The exact CBOR bytes this key was decoded from.
    public let cborRepresentation: [UInt8]
    let verifier: SignatureVerifier

    public var keyType: KeyType {
        switch parameters {
        case .ec2: .ec2
        case .okp: .okp
        case .rsa: .rsa
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.cborRepresentation == rhs.cborRepresentation }
    public func hash(into hasher: inout Hasher) { hasher.combine(cborRepresentation) }

    /// Decodes and validates a COSE key from its CBOR encoding.
    public init(cborRepresentation bytes: [UInt8]) throws(WebAuthnError) {
        let value = try CBORDecoder(limits: CBORLimits(maximumInputSize: 4096, maximumDepth: 2, maximumItemCount: 32))
            .decode(bytes)
        try self.init(value, cborRepresentation: bytes)
    }

    init(_ value: CBORValue, cborRepresentation bytes: [UInt8]) throws(WebAuthnError) {
        func fail(_ reason: String) -> WebAuthnError { WebAuthnError(.invalidCOSEKey, reason) }
        guard value.mapEntries != nil else { throw fail("A COSE key must be a CBOR map.") }
        guard let ktyValue = value[int: 1]?.intValue, let kty = KeyType(rawValue: ktyValue) else {
            throw fail("The COSE key type (label 1) is missing or not OKP (1), EC2 (2) or RSA (3).")
        }
        guard let algValue = value[int: 3]?.intValue else {
            throw fail("The COSE key has no algorithm (label 3); WebAuthn requires it.")
        }
        let alg = COSEAlgorithmIdentifier(rawValue: algValue)
        guard let family = alg.family else {
            throw WebAuthnError(
                .unsupportedAlgorithm,
                "COSE algorithm \(algValue) is not supported; use one of \(COSEAlgorithmIdentifier.supported.map(\.name))."
            )
        }

        func curve() throws(WebAuthnError) -> Curve {
            guard let raw = value[int: -1]?.intValue, let curve = Curve(rawValue: raw) else {
                throw fail("The COSE key's curve (label -1) is missing or not supported.")
            }
            return curve
        }
        func field(_ label: Int, _ name: String) throws(WebAuthnError) -> [UInt8] {
            guard let b = value[int: label]?.bytesValue, !b.isEmpty else {
                throw fail("The COSE key's \(name) (label \(label)) is missing or not a byte string.")
            }
            return b
        }

        let parameters: Parameters
        switch (kty, family) {
        case (.ec2, .ecdsa):
            let crv = try curve()
            let expected: Curve = alg == .es256 ? .p256 : alg == .es384 ? .p384 : .p521
            guard crv == expected else {
                throw fail("\(alg.name) requires curve \(expected), but the key is on \(crv).")
            }
            parameters = .ec2(curve: crv, x: try field(-2, "x coordinate"), y: try field(-3, "y coordinate"))
        case (.okp, .eddsa):
            guard try curve() == .ed25519 else { throw fail("EdDSA keys must use curve Ed25519 (6).") }
            parameters = .okp(curve: .ed25519, x: try field(-2, "public key"))
        case (.rsa, .rsaPKCS1), (.rsa, .rsaPSS):
            parameters = .rsa(n: try field(-1, "modulus n"), e: try field(-2, "exponent e"))
        default:
            throw fail("Key type \(kty) does not match algorithm \(alg.name).")
        }
        self.algorithm = alg
        self.parameters = parameters
        self.cborRepresentation = bytes
        self.verifier = try SignatureVerifier(parameters, algorithm: alg)
    }

    /// Checks `signature` over `data` with this key and its algorithm.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        verifier.isValidSignature(signature, for: data, algorithm: algorithm)
    }
}
