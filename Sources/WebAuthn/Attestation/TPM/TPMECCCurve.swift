/// A `TPM_ECC_CURVE` (TPM 2.0 Part 2 §6.4): the curve of an ECC key in `TPMS_ECC_PARMS.curveID`.
struct TPMECCCurve: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    let rawValue: UInt16
    init(rawValue: UInt16) { self.rawValue = rawValue }

    static let nistP256 = Self(rawValue: 0x0003)
    static let nistP384 = Self(rawValue: 0x0004)
    static let nistP521 = Self(rawValue: 0x0005)

    /// The COSE curve of a credential key on this curve, for the curves WebAuthn uses.
    var coseCurve: COSEKey.Curve? {
        switch self {
        case .nistP256: .p256
        case .nistP384: .p384
        case .nistP521: .p521
        default: nil
        }
    }

    /// The length in bytes of a coordinate on this curve.
    var coordinateLength: Int? {
        switch self {
        case .nistP256: 32
        case .nistP384: 48
        case .nistP521: 66
        default: nil
        }
    }

    var description: String {
        switch self {
        case .nistP256: "TPM_ECC_NIST_P256"
        case .nistP384: "TPM_ECC_NIST_P384"
        case .nistP521: "TPM_ECC_NIST_P521"
        default: "TPM_ECC_CURVE(0x\(String(rawValue, radix: 16, uppercase: true)))"
        }
    }
}
