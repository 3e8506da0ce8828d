import Testing

@testable import WebAuthn

/// The `pubArea` (TPMT_PUBLIC) and `certInfo` (TPMS_ATTEST) parsers: strict, bounded, and never crashing.
@Suite("TPM attestation: structure parsers")
struct TPMStructureTests {
    /// Runs both parsers; they may accept or throw, but must not trap.
    private func parseBoth(_ bytes: [UInt8]) {
        _ = try? TPMTPublic(bytes: bytes)
        _ = try? TPMSAttest(bytes: bytes)
    }

    @Test("Valid structures decode field by field", arguments: TPMSyntheticStatement.CredentialKind.allCases)
    func decodesSynthetic(_ kind: TPMSyntheticStatement.CredentialKind) throws {
        let synthetic = try TPMSyntheticStatement.make(kind)
        let pubArea = try TPMTPublic(bytes: synthetic.pubArea)
        #expect(pubArea.nameAlg == .sha256)
        #expect(pubArea.objectAttributes == 0x0006_0472)
        #expect(pubArea.authPolicy == [UInt8](repeating: 0x9D, count: 32))
        #expect(pubArea.name == TPMMarshal.sha256Name(synthetic.pubArea))
        switch pubArea.parameters {
        case .rsa(let rsa):
            #expect(kind == .rsa2048)
            #expect(rsa.symmetric.algorithm == .null && rsa.scheme.scheme == .rsassa && rsa.scheme.hashAlg == .sha256)
            #expect(rsa.keyBits == 2048 && rsa.exponent == 0 && rsa.effectiveExponent == 65537)
        case .ecc(let ecc):
            #expect(kind == .ecP256)
            #expect(ecc.symmetric.algorithm == .null && ecc.scheme.scheme == .ecdsa && ecc.scheme.hashAlg == .sha256)
            #expect(ecc.curveID == .nistP256 && ecc.kdf.scheme == .null)
        }
        let certInfo = try TPMSAttest(bytes: synthetic.certInfo)
        #expect(certInfo.magic == 0xFF54_4347 && certInfo.type == 0x8017)
        #expect(certInfo.qualifiedSigner.count == 34 && certInfo.attested.qualifiedName.count == 34)
        #expect(
            certInfo.clockInfo
                == TPMSAttest.ClockInfo(
                    clock: 0x0101_0101_0101_0101,
                    resetCount: 0x0101_0101,
                    restartCount: 0x0101_0101,
                    safe: 0x01
                )
        )
        #expect(certInfo.firmwareVersion == 0x0001_0002_0003_0004)
        #expect(certInfo.attested.name == pubArea.name)
    }

    @Test("A symmetric definition and ECDAA scheme with their details decode")
    func schemeDetails() throws {
        let x = [UInt8](repeating: 1, count: 32)
        let y = [UInt8](repeating: 2, count: 32)
        // symmetric AES-128-CFB, scheme ECDAA (hash SHA-256, count 7), P-256, KDF KDF1_SP800_56A with SHA-256.
        let bytes =
            TPMMarshal.u16(0x0023) + TPMMarshal.u16(0x000B) + TPMMarshal.u32(0) + TPMMarshal.sized([])
            + TPMMarshal.u16(0x0006) + TPMMarshal.u16(128) + TPMMarshal.u16(0x0043)
            + TPMMarshal.u16(0x001A) + TPMMarshal.u16(0x000B) + TPMMarshal.u16(7)
            + TPMMarshal.u16(0x0003) + TPMMarshal.u16(0x0020) + TPMMarshal.u16(0x000B)
            + TPMMarshal.sized(x) + TPMMarshal.sized(y)
        let pubArea = try TPMTPublic(bytes: bytes)
        guard case .ecc(let ecc) = pubArea.parameters else {
            Issue.record("not ECC")
            return
        }
        #expect(ecc.symmetric == .init(algorithm: .aes, keyBits: 128, mode: TPMAlgorithmID(rawValue: 0x0043)))
        #expect(ecc.scheme == .init(scheme: .ecdaa, hashAlg: .sha256, count: 7))
        #expect(ecc.kdf == .init(scheme: .kdf1SP800_56A, hashAlg: .sha256, count: nil))
        #expect(pubArea.unique == .ecc(x: x, y: y))
    }

    @Test("Unknown schemes and symmetric algorithms are rejected, not guessed")
    func unknownSchemes() throws {
        let prefix = TPMMarshal.u16(0x0001) + TPMMarshal.u16(0x000B) + TPMMarshal.u32(0) + TPMMarshal.sized([])
        // An RSA key with an ECDSA scheme.
        #expect(throws: TPMParseError.self) {
            try TPMTPublic(
                bytes: prefix + TPMMarshal.u16(0x0010) + TPMMarshal.u16(0x0018) + TPMMarshal.u16(0x000B)
                    + TPMMarshal.u16(8) + TPMMarshal.u32(0) + TPMMarshal.sized([0x80])
            )
        }
        // TPM_ALG_XOR is not a symmetric object algorithm.
        #expect(throws: TPMParseError.self) {
            try TPMTPublic(
                bytes: prefix + TPMMarshal.u16(0x000A) + TPMMarshal.u16(0x000B) + TPMMarshal.u16(0x0010)
                    + TPMMarshal.u16(8) + TPMMarshal.u32(0) + TPMMarshal.sized([0x80])
            )
        }
        // A well-formed 8-bit key decodes, which shows the two above failed on the scheme alone.
        #expect(throws: Never.self) {
            try TPMTPublic(
                bytes: prefix + TPMMarshal.u16(0x0010) + TPMMarshal.u16(0x0010) + TPMMarshal.u16(8)
                    + TPMMarshal.u32(0) + TPMMarshal.sized([0x80])
            )
        }
    }

    @Test(
        "Every proper prefix of a valid structure is rejected",
        arguments: TPMSyntheticStatement.CredentialKind.allCases
    )
    func prefixesAreRejected(_ kind: TPMSyntheticStatement.CredentialKind) throws {
        let synthetic = try TPMSyntheticStatement.make(kind)
        for length in 0..<synthetic.pubArea.count {
            #expect(throws: TPMParseError.self, "pubArea prefix of \(length) bytes") {
                try TPMTPublic(bytes: Array(synthetic.pubArea.prefix(length)))
            }
        }
        for length in 0..<synthetic.certInfo.count {
            #expect(throws: TPMParseError.self, "certInfo prefix of \(length) bytes") {
                try TPMSAttest(bytes: Array(synthetic.certInfo.prefix(length)))
            }
        }
    }

    @Test("Trailing bytes are rejected", arguments: TPMSyntheticStatement.CredentialKind.allCases)
    func trailingBytes(_ kind: TPMSyntheticStatement.CredentialKind) throws {
        let synthetic = try TPMSyntheticStatement.make(kind)
        let pubAreaError = #expect(throws: TPMParseError.self) { try TPMTPublic(bytes: synthetic.pubArea + [0]) }
        #expect(pubAreaError?.reason.contains("1 unexpected bytes") == true)
        let certInfoError = #expect(throws: TPMParseError.self) { try TPMSAttest(bytes: synthetic.certInfo + [0, 0]) }
        #expect(certInfoError?.reason.contains("2 unexpected bytes") == true)
    }

    @Test("The reader never reads past the end")
    func readerBounds() throws {
        var reader = TPMByteReader([0x00, 0x05, 0xAA])
        #expect(throws: TPMParseError.self) { try reader.sized("value") }
        var empty = TPMByteReader([])
        #expect(throws: TPMParseError.self) { try empty.uint8("byte") }
        #expect(throws: TPMParseError.self) { try empty.take(-1, "negative") }
        var exact = TPMByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08])
        #expect(try exact.uint64("value") == 0x0102_0304_0506_0708)
        #expect(throws: Never.self) { try exact.finish("value") }
        #expect(throws: TPMParseError.self) { try exact.uint16("more") }
    }

    @Test("Random inputs never crash the parsers")
    func randomInputs() {
        var generator = SplitMix64(seed: 0x7470_6D32)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...400, using: &generator)
            parseBoth((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
    }

    @Test(
        "Random changes to valid structures never crash the parsers",
        arguments: TPMSyntheticStatement.CredentialKind.allCases
    )
    func randomChanges(_ kind: TPMSyntheticStatement.CredentialKind) throws {
        let synthetic = try TPMSyntheticStatement.make(kind)
        var generator = SplitMix64(seed: 0x6365_7274)
        for original in [synthetic.pubArea, synthetic.certInfo] {
            for _ in 0..<5_000 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0:
                        bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
                            in: 0...255,
                            using: &generator
                        )
                    case 1: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
                    case 2: bytes.append(UInt8.random(in: 0...255, using: &generator))
                    default:
                        // A length field set to something large.
                        if bytes.count > 2 {
                            let at = Int.random(in: 0..<bytes.count - 1, using: &generator)
                            bytes[at] = 0xFF
                            bytes[at + 1] = UInt8.random(in: 0...255, using: &generator)
                        }
                    }
                    if bytes.isEmpty { bytes = [0] }
                }
                parseBoth(bytes)
            }
        }
    }

    @Test(
        "Every single-byte change to a signed statement is rejected, and none crashes",
        arguments: TPMSyntheticStatement.CredentialKind.allCases
    )
    func everyByteChangeIsRejected(_ kind: TPMSyntheticStatement.CredentialKind) throws {
        let synthetic = try TPMSyntheticStatement.make(kind)
        let fields = synthetic.fields
        for key in ["pubArea", "certInfo", "sig"] {
            let original = fields.tpmBytes(key)
            for index in original.indices {
                var changed = original
                changed[index] ^= 0x5A
                let statement = try synthetic.statement(fields: fields.settingTPMField(key, to: .bytes(changed)))
                #expect(throws: WebAuthnError.self, "\(key) byte \(index)") { try TPMAttestation.verify(statement) }
            }
        }
    }
}
