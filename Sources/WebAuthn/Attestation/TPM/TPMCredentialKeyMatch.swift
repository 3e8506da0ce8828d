/// §8.3 step 2: the key that `pubArea`'s `parameters` and `unique` describe is the credential public key.
extension TPMTPublic {
    /// Why the public area's key differs from `credentialKey`, or nil when they are the same key.
    /// Integers (modulus, exponent, coordinates) are compared by value, so leading zero bytes do not matter.
    func mismatch(with credentialKey: COSEKey.Parameters) -> String? {
        switch (parameters, unique, credentialKey) {
        case (.rsa(let rsa), .rsa(let modulus), .rsa(let n, let e)):
            guard Self.magnitude(modulus) == Self.magnitude(n) else { return "the RSA moduli differ." }
            let exponent = withUnsafeBytes(of: rsa.effectiveExponent.bigEndian) { Array($0) }
            guard Self.magnitude(exponent) == Self.magnitude(e) else {
                return "the RSA exponents differ (pubArea uses \(rsa.effectiveExponent))."
            }
            return nil
        case (.ecc(let ecc), .ecc(let x, let y), .ec2(let curve, let credentialX, let credentialY)):
            guard let tpmCurve = ecc.curveID.coseCurve else {
                return "pubArea's curve \(ecc.curveID) is not P-256, P-384 or P-521."
            }
            guard tpmCurve == curve else {
                return "pubArea's key is on \(ecc.curveID) but the credential key is on \(curve)."
            }
            guard Self.magnitude(x) == Self.magnitude(credentialX), Self.magnitude(y) == Self.magnitude(credentialY)
            else {
                return "the EC points differ."
            }
            return nil
        default:
            return "pubArea holds a \(type) key but the credential key is of another type."
        }
    }

    /// A big-endian unsigned integer without its leading zero bytes.
    private static func magnitude(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.drop { $0 == 0 }
    }
}
