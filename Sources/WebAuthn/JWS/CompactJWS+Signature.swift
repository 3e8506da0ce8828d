import Crypto

extension CompactJWS {
    /// The JWS `alg` names this library verifies (RFC 7518 §3.1, RFC 8037 §3.1), and the COSE algorithm of each.
    static let algorithms: [String: COSEAlgorithmIdentifier] = [
        "ES256": .es256, "ES384": .es384, "ES512": .es512,
        "RS256": .rs256, "RS384": .rs384, "RS512": .rs512,
        "PS256": .ps256, "PS384": .ps384, "PS512": .ps512,
        "EdDSA": .edDSA,
    ]

    /// Why a signature was not accepted.
    enum SignatureFailure: Error {
        /// `alg` is not a JWS algorithm this library verifies, or not one the caller accepts.
        case algorithmNotAccepted
        /// `alg` needs another kind of key than the one given.
        case keyMismatch
        /// An ECDSA signature is not `r || s` of the curve's size (RFC 7518 §3.4).
        case malformedSignature
        /// The signature does not verify.
        case invalid
    }

    /// Verifies the signature over ``signingInput`` with `key` (usually the `x5c` leaf's), when `alg` is one of
    /// `accepted`.
    func verifySignature(
        with key: SignatureVerifier,
        accepting accepted: Set<COSEAlgorithmIdentifier>
    ) throws(SignatureFailure) {
        guard let algorithm = Self.algorithms[header.algorithm], accepted.contains(algorithm) else {
            throw .algorithmNotAccepted
        }
        guard key.supports(algorithm), algorithm.family != .ecdsa || key.isCurve(of: algorithm) else {
            throw .keyMismatch
        }
        var signature = self.signature
        if algorithm.family == .ecdsa {
            // JWS carries ECDSA signatures as r || s; the verifier takes DER.
            guard let der = key.derSignature(raw: signature) else { throw .malformedSignature }
            signature = der
        }
        guard key.isValidSignature(signature, for: signingInput, algorithm: algorithm) else { throw .invalid }
    }
}

extension SignatureVerifier {
    /// Whether this EC key is on the curve an ECDSA algorithm names (JWS binds ES256 to P-256, ES384 to P-384,
    /// ES512 to P-521).
    fileprivate func isCurve(of algorithm: COSEAlgorithmIdentifier) -> Bool {
        switch (self, algorithm) {
        case (.p256, .es256), (.p384, .es384), (.p521, .es512): true
        default: false
        }
    }

    /// A raw `r || s` ECDSA signature for this key's curve, re-encoded as DER; nil when it has the wrong size.
    fileprivate func derSignature(raw: [UInt8]) -> [UInt8]? {
        switch self {
        case .p256: (try? P256.Signing.ECDSASignature(rawRepresentation: raw)).map { Array($0.derRepresentation) }
        case .p384: (try? P384.Signing.ECDSASignature(rawRepresentation: raw)).map { Array($0.derRepresentation) }
        case .p521: (try? P521.Signing.ECDSASignature(rawRepresentation: raw)).map { Array($0.derRepresentation) }
        case .ed25519, .rsa: nil
        }
    }
}
