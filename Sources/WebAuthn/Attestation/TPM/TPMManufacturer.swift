/// A TPM vendor, as named by the `tcg-at-tpmManufacturer` attribute (2.23.133.2.1) of an AIK certificate's
/// subject alternative name: `"id:"` followed by the 4-byte TPM vendor ID in upper-case hexadecimal.
///
/// The vendor list is the TCG "TPM Vendor ID Registry, Family 1.2 and 2.0", Version 1.07 (Trusted Computing
/// Group, https://trustedcomputinggroup.org/resource/vendor-id-registry/), plus two test identifiers that are
/// not in the registry (see ``isTest``).
struct TPMManufacturer: Sendable, Hashable {
    /// The attribute value, e.g. `"id:4E544300"`.
    let id: String
    let name: String
    /// A test identifier rather than a TCG-registered vendor.
    ///
    /// Accepting them here is safe because the manufacturer check is a format requirement (§8.3.1), not a
    /// trust decision: whether an AIK certificate is trusted is decided only by verifying its chain to the
    /// relying party's TPM trust anchors, and no production TPM vendor CA issues these identifiers.
    let isTest: Bool

    static let known: [TPMManufacturer] = registered + test

    /// TCG TPM Vendor ID Registry, Version 1.07.
    static let registered: [TPMManufacturer] = [
        .init(id: "id:414D4400", name: "AMD", isTest: false),
        .init(id: "id:414E5400", name: "Ant Group", isTest: false),
        .init(id: "id:41544D4C", name: "Atmel", isTest: false),
        .init(id: "id:4252434D", name: "Broadcom", isTest: false),
        .init(id: "id:4353434F", name: "Cisco", isTest: false),
        .init(id: "id:464C5953", name: "Flyslice Technologies", isTest: false),
        .init(id: "id:524F4343", name: "Fuzhou Rockchip", isTest: false),
        .init(id: "id:474F4F47", name: "Google", isTest: false),
        .init(id: "id:48504900", name: "HPI", isTest: false),
        .init(id: "id:48504500", name: "HPE", isTest: false),
        .init(id: "id:48495349", name: "Huawei", isTest: false),
        .init(id: "id:49424D00", name: "IBM", isTest: false),
        .init(id: "id:49465800", name: "Infineon", isTest: false),
        .init(id: "id:494E5443", name: "Intel", isTest: false),
        .init(id: "id:4C454E00", name: "Lenovo", isTest: false),
        .init(id: "id:4D534654", name: "Microsoft", isTest: false),
        .init(id: "id:4E534D20", name: "National Semiconductor", isTest: false),
        .init(id: "id:4E545A00", name: "Nationz", isTest: false),
        .init(id: "id:4E534700", name: "NSING", isTest: false),
        .init(id: "id:4E544300", name: "Nuvoton Technology", isTest: false),
        .init(id: "id:51434F4D", name: "Qualcomm", isTest: false),
        .init(id: "id:534D534E", name: "Samsung", isTest: false),
        .init(id: "id:53454345", name: "SecEdge", isTest: false),
        .init(id: "id:534E5300", name: "Sinosun", isTest: false),
        .init(id: "id:534D5343", name: "SMSC", isTest: false),
        .init(id: "id:53544D20", name: "STMicroelectronics", isTest: false),
        .init(id: "id:54584E00", name: "Texas Instruments", isTest: false),
        .init(id: "id:57454300", name: "Winbond", isTest: false),
        .init(id: "id:5345414C", name: "Wisekey", isTest: false),
    ]

    /// Identifiers outside the registry that real attestation data carries.
    static let test: [TPMManufacturer] = [
        // The FIDO Alliance conformance tools' test TPM: FIDO-certified TPM authenticators are tested with it.
        .init(id: "id:FFFFF1D0", name: "FIDO Alliance conformance test TPM", isTest: true),
        // The WebAuthn Level 3 test vectors (§16, "tpm" registration) use an AIK certificate issued by the
        // synthetic test-vector CA with manufacturer id:00000000. It names no vendor, so accepting it lets
        // those vectors verify without letting a certificate pose as any registered vendor.
        .init(id: "id:00000000", name: "WebAuthn specification test vectors", isTest: true),
    ]

    /// The manufacturer with this attribute value, matched exactly.
    static func named(_ id: String) -> TPMManufacturer? {
        known.first { $0.id == id }
    }
}
