/// `TPMS_ATTEST` (TPM 2.0 Part 2 §10.12.12) holding a `TPMS_CERTIFY_INFO`: the `certInfo` member of a `tpm`
/// attestation statement, which the attestation identity key signs. Decoded strictly: every length is checked
/// and no bytes may follow.
struct TPMSAttest: Sendable, Hashable {
    /// `TPM_GENERATED_VALUE` (Part 2 §6.2): marks a structure the TPM itself produced.
    static let generatedValue: UInt32 = 0xFF54_4347
    /// `TPM_ST_ATTEST_CERTIFY` (Part 2 §6.9): the structure was produced by `TPM2_Certify`.
    static let attestCertify: UInt16 = 0x8017

    /// `TPMS_CLOCK_INFO` (Part 2 §10.11.1), 17 bytes.
    struct ClockInfo: Sendable, Hashable {
        let clock: UInt64
        let resetCount: UInt32
        let restartCount: UInt32
        /// `TPMI_YES_NO`.
        let safe: UInt8
    }

    /// `TPMS_CERTIFY_INFO` (Part 2 §10.12.3).
    struct CertifyInfo: Sendable, Hashable {
        /// `TPM2B_NAME`: the Name of the certified object.
        let name: [UInt8]
        /// `TPM2B_NAME`: its Qualified Name.
        let qualifiedName: [UInt8]
    }

    let magic: UInt32
    let type: UInt16
    let qualifiedSigner: [UInt8]
    let extraData: [UInt8]
    let clockInfo: ClockInfo
    let firmwareVersion: UInt64
    let attested: CertifyInfo

    /// Decodes `bytes`. The layout of `attested` depends on `type`, so a type other than
    /// `TPM_ST_ATTEST_CERTIFY` is rejected here; `magic` is decoded whatever its value and checked by the caller.
    init(bytes: [UInt8]) throws(TPMParseError) {
        var reader = TPMByteReader(bytes)
        magic = try reader.uint32("magic")
        type = try reader.uint16("type")
        guard type == Self.attestCertify else {
            throw TPMParseError(
                "type is 0x\(String(type, radix: 16, uppercase: true)), not TPM_ST_ATTEST_CERTIFY (0x8017)."
            )
        }
        qualifiedSigner = try reader.sized("qualifiedSigner")
        extraData = try reader.sized("extraData")
        clockInfo = ClockInfo(
            clock: try reader.uint64("clockInfo.clock"),
            resetCount: try reader.uint32("clockInfo.resetCount"),
            restartCount: try reader.uint32("clockInfo.restartCount"),
            safe: try reader.uint8("clockInfo.safe")
        )
        firmwareVersion = try reader.uint64("firmwareVersion")
        attested = CertifyInfo(
            name: try reader.sized("attested.name"),
            qualifiedName: try reader.sized("attested.qualifiedName")
        )
        try reader.finish("TPMS_ATTEST")
    }
}
