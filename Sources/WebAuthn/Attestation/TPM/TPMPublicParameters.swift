/// The algorithm parameters of a TPM object (TPM 2.0 Part 2 §12.2.3, `TPMU_PUBLIC_PARMS`), for the two
/// object types a WebAuthn credential can be: `TPMS_RSA_PARMS` and `TPMS_ECC_PARMS`.
enum TPMPublicParameters: Sendable, Hashable {
    case rsa(RSA)
    case ecc(ECC)

    /// `TPMS_RSA_PARMS`.
    struct RSA: Sendable, Hashable {
        let symmetric: SymmetricDefinition
        let scheme: Scheme
        let keyBits: UInt16
        /// The exponent as marshaled; 0 stands for the default exponent 2^16 + 1.
        let exponent: UInt32

        /// The public exponent the key uses (Part 2 §12.2.3.5: zero means 65537).
        var effectiveExponent: UInt32 { exponent == 0 ? 65537 : exponent }

        static func parse(_ reader: inout TPMByteReader) throws(TPMParseError) -> Self {
            let symmetric = try SymmetricDefinition.parse(&reader)
            let scheme = try Scheme.parse(&reader, "RSA scheme", allowed: [.null, .rsassa, .rsapss, .rsaes, .oaep])
            let keyBits = try reader.uint16("keyBits")
            let exponent = try reader.uint32("exponent")
            return RSA(symmetric: symmetric, scheme: scheme, keyBits: keyBits, exponent: exponent)
        }
    }

    /// `TPMS_ECC_PARMS`.
    struct ECC: Sendable, Hashable {
        let symmetric: SymmetricDefinition
        let scheme: Scheme
        let curveID: TPMECCCurve
        let kdf: Scheme

        static func parse(_ reader: inout TPMByteReader) throws(TPMParseError) -> Self {
            let symmetric = try SymmetricDefinition.parse(&reader)
            let scheme = try Scheme.parse(
                &reader,
                "ECC scheme",
                allowed: [.null, .ecdsa, .ecdh, .ecdaa, .sm2, .ecschnorr, .ecmqv]
            )
            let curveID = TPMECCCurve(rawValue: try reader.uint16("curveID"))
            let kdf = try Scheme.parse(
                &reader,
                "KDF scheme",
                allowed: [.null, .mgf1, .kdf1SP800_56A, .kdf2, .kdf1SP800_108]
            )
            return ECC(symmetric: symmetric, scheme: scheme, curveID: curveID, kdf: kdf)
        }
    }

    /// `TPMT_SYM_DEF_OBJECT` (Part 2 §11.1.7): `TPM_ALG_NULL` alone, or an algorithm with key size and mode.
    struct SymmetricDefinition: Sendable, Hashable {
        let algorithm: TPMAlgorithmID
        let keyBits: UInt16?
        let mode: TPMAlgorithmID?

        static func parse(_ reader: inout TPMByteReader) throws(TPMParseError) -> Self {
            let algorithm = TPMAlgorithmID(rawValue: try reader.uint16("symmetric.algorithm"))
            if algorithm == .null { return SymmetricDefinition(algorithm: algorithm, keyBits: nil, mode: nil) }
            guard [TPMAlgorithmID.aes, .sm4, .camellia].contains(algorithm) else {
                throw TPMParseError("symmetric.algorithm \(algorithm) is not TPM_ALG_NULL or a symmetric block cipher.")
            }
            let keyBits = try reader.uint16("symmetric.keyBits")
            let mode = TPMAlgorithmID(rawValue: try reader.uint16("symmetric.mode"))
            return SymmetricDefinition(algorithm: algorithm, keyBits: keyBits, mode: mode)
        }
    }

    /// `TPMT_RSA_SCHEME`, `TPMT_ECC_SCHEME` or `TPMT_KDF_SCHEME` (Part 2 §11.2): a scheme identifier and the
    /// details it selects — nothing for `TPM_ALG_NULL` and `TPM_ALG_RSAES`, a hash algorithm for the others,
    /// and a hash algorithm and a counter for `TPM_ALG_ECDAA`.
    struct Scheme: Sendable, Hashable {
        let scheme: TPMAlgorithmID
        let hashAlg: TPMAlgorithmID?
        let count: UInt16?

        static func parse(
            _ reader: inout TPMByteReader,
            _ field: String,
            allowed: Set<TPMAlgorithmID>
        ) throws(TPMParseError) -> Self {
            let scheme = TPMAlgorithmID(rawValue: try reader.uint16(field))
            guard allowed.contains(scheme) else {
                throw TPMParseError("\(field) \(scheme) is not one this structure allows.")
            }
            switch scheme {
            case .null, .rsaes:
                return Scheme(scheme: scheme, hashAlg: nil, count: nil)
            case .ecdaa:
                let hashAlg = TPMAlgorithmID(rawValue: try reader.uint16("\(field).hashAlg"))
                return Scheme(scheme: scheme, hashAlg: hashAlg, count: try reader.uint16("\(field).count"))
            default:
                return Scheme(
                    scheme: scheme,
                    hashAlg: TPMAlgorithmID(rawValue: try reader.uint16("\(field).hashAlg")),
                    count: nil
                )
            }
        }
    }
}
