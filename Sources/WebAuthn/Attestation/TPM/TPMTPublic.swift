/// `TPMT_PUBLIC` (TPM 2.0 Part 2 §12.2.4): the public area of the credential key, the `pubArea` member of a
/// `tpm` attestation statement. Decoded strictly: every length is checked and no bytes may follow.
struct TPMTPublic: Sendable, Hashable {
    /// The key, from `TPMU_PUBLIC_ID` (Part 2 §12.2.3.2).
    enum Unique: Sendable, Hashable {
        /// `TPM2B_PUBLIC_KEY_RSA`: the modulus.
        case rsa(modulus: [UInt8])
        /// `TPMS_ECC_POINT`: two `TPM2B_ECC_PARAMETER` coordinates.
        case ecc(x: [UInt8], y: [UInt8])
    }

    let type: TPMAlgorithmID
    let nameAlg: TPMAlgorithmID
    /// `TPMA_OBJECT`, kept as marshaled.
    let objectAttributes: UInt32
    let authPolicy: [UInt8]
    let parameters: TPMPublicParameters
    let unique: Unique
    /// The marshaled bytes, which the object's Name is computed over.
    let rawRepresentation: [UInt8]

    init(bytes: [UInt8]) throws(TPMParseError) {
        var reader = TPMByteReader(bytes)
        type = TPMAlgorithmID(rawValue: try reader.uint16("type"))
        nameAlg = TPMAlgorithmID(rawValue: try reader.uint16("nameAlg"))
        objectAttributes = try reader.uint32("objectAttributes")
        authPolicy = try reader.sized("authPolicy")
        switch type {
        case .rsa:
            let rsa = try TPMPublicParameters.RSA.parse(&reader)
            let modulus = try reader.sized("unique (RSA modulus)")
            guard !modulus.isEmpty, Int(rsa.keyBits) == modulus.count * 8 else {
                throw TPMParseError("the RSA modulus has \(modulus.count * 8) bits but keyBits says \(rsa.keyBits).")
            }
            parameters = .rsa(rsa)
            unique = .rsa(modulus: modulus)
        case .ecc:
            let ecc = try TPMPublicParameters.ECC.parse(&reader)
            let x = try reader.sized("unique.x")
            let y = try reader.sized("unique.y")
            parameters = .ecc(ecc)
            unique = .ecc(x: x, y: y)
        default:
            throw TPMParseError("type \(type) is not TPM_ALG_RSA (0x0001) or TPM_ALG_ECC (0x0023).")
        }
        try reader.finish("TPMT_PUBLIC")
        rawRepresentation = bytes
    }

    /// The object's Name (TPM 2.0 Part 1 §16): `nameAlg` (2 bytes, big-endian) followed by the digest of the
    /// marshaled public area with `nameAlg`; nil when `nameAlg` is not a hash this library computes.
    var name: [UInt8]? {
        guard let digest = nameAlg.digest(rawRepresentation) else { return nil }
        return [UInt8(nameAlg.rawValue >> 8), UInt8(nameAlg.rawValue & 0xFF)] + digest
    }
}
