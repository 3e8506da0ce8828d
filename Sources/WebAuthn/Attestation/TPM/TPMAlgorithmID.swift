import Crypto

/// A `TPM_ALG_ID` (TPM 2.0 Part 2 §6.3, "TPM_ALG_ID"): the 16-bit identifiers TPM structures use for
/// key types, hash functions, schemes and symmetric modes. Only the values WebAuthn's `tpm` format meets
/// are named; others stay representable by their raw value.
struct TPMAlgorithmID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    let rawValue: UInt16
    init(rawValue: UInt16) { self.rawValue = rawValue }

    // Object types (TPMI_ALG_PUBLIC).
    static let rsa = Self(rawValue: 0x0001)
    static let ecc = Self(rawValue: 0x0023)
    static let keyedHash = Self(rawValue: 0x0008)
    static let symCipher = Self(rawValue: 0x0025)

    // Hash functions (TPMI_ALG_HASH).
    static let sha1 = Self(rawValue: 0x0004)
    static let sha256 = Self(rawValue: 0x000B)
    static let sha384 = Self(rawValue: 0x000C)
    static let sha512 = Self(rawValue: 0x000D)
    static let sm3_256 = Self(rawValue: 0x0012)

    /// "No algorithm": an empty union member follows.
    static let null = Self(rawValue: 0x0010)

    // Symmetric algorithms for TPMT_SYM_DEF_OBJECT.
    static let aes = Self(rawValue: 0x0006)
    static let sm4 = Self(rawValue: 0x0013)
    static let camellia = Self(rawValue: 0x0026)

    // Asymmetric schemes (TPMU_ASYM_SCHEME).
    static let rsassa = Self(rawValue: 0x0014)
    static let rsaes = Self(rawValue: 0x0015)
    static let rsapss = Self(rawValue: 0x0016)
    static let oaep = Self(rawValue: 0x0017)
    static let ecdsa = Self(rawValue: 0x0018)
    static let ecdh = Self(rawValue: 0x0019)
    static let ecdaa = Self(rawValue: 0x001A)
    static let sm2 = Self(rawValue: 0x001B)
    static let ecschnorr = Self(rawValue: 0x001C)
    static let ecmqv = Self(rawValue: 0x001D)

    // Key derivation functions (TPMT_KDF_SCHEME).
    static let mgf1 = Self(rawValue: 0x0007)
    static let kdf1SP800_56A = Self(rawValue: 0x0020)
    static let kdf2 = Self(rawValue: 0x0021)
    static let kdf1SP800_108 = Self(rawValue: 0x0022)

    var description: String {
        let names: [Self: String] = [
            .rsa: "TPM_ALG_RSA", .ecc: "TPM_ALG_ECC", .keyedHash: "TPM_ALG_KEYEDHASH", .symCipher: "TPM_ALG_SYMCIPHER",
            .sha1: "TPM_ALG_SHA1", .sha256: "TPM_ALG_SHA256", .sha384: "TPM_ALG_SHA384", .sha512: "TPM_ALG_SHA512",
            .sm3_256: "TPM_ALG_SM3_256", .null: "TPM_ALG_NULL",
        ]
        let hex = String(rawValue, radix: 16, uppercase: true)
        let raw = "0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return names[self].map { "\($0) (\(raw))" } ?? raw
    }
}

extension TPMAlgorithmID {
    /// The digest of `data` with this hash algorithm, or nil when this is not a hash this library computes.
    func digest(_ data: [UInt8]) -> [UInt8]? {
        switch self {
        case .sha1: Array(Insecure.SHA1.hash(data: data))
        case .sha256: Array(SHA256.hash(data: data))
        case .sha384: Array(SHA384.hash(data: data))
        case .sha512: Array(SHA512.hash(data: data))
        default: nil
        }
    }
}
