import Crypto
import PasskeyTesting
import Testing

@testable import WebAuthn

/// Authenticator data (WebAuthn §6.1) decodes field by field.
struct AuthenticatorDataParsingTests {
    @Test("§6.1: rpIdHash is the first 32 bytes; the data keeps its raw bytes")
    func rpIDHash() throws {
        let bytes = AuthenticatorDataBuilder(rpID: "login.example.org").build()
        let data = try AuthenticatorData(bytes: bytes)
        #expect(data.rpIDHash == Array(SHA256.hash(data: Array("login.example.org".utf8))))
        #expect(data.rawRepresentation == bytes)
        #expect(bytes.count == 37)
    }

    @Test(
        "§6.1: each flag bit is read from byte 32",
        arguments: [
            (UInt8(0x00), false, false, false, false), (0x01, true, false, false, false),
            (0x04, false, true, false, false),
            (0x05, true, true, false, false), (0x08, false, false, true, false), (0x18, false, false, true, true),
            (0x1D, true, true, true, true),
            (0x22, false, false, false, false),  // the reserved bits 1 and 5 are ignored
        ]
    )
    func flags(_ raw: UInt8, _ up: Bool, _ uv: Bool, _ be: Bool, _ bs: Bool) throws {
        let data = try AuthenticatorData(
            bytes: AuthenticatorDataBuilder(rpID: "example.com", flags: AuthenticatorDataFlags(rawValue: raw)).build()
        )
        #expect(data.flags.rawValue == raw)
        #expect(data.userPresent == up)
        #expect(data.userVerified == uv)
        #expect(data.backupEligible == be)
        #expect(data.backupState == bs)
        #expect(data.attestedCredentialData == nil)
        #expect(data.extensions == nil)
    }

    @Test(
        "§6.1: signCount is a 32-bit big-endian unsigned integer",
        arguments: [UInt32(0), 1, 0x0102_0304, 0x8000_0000, UInt32.max]
    )
    func signCount(_ count: UInt32) throws {
        let bytes = AuthenticatorDataBuilder(rpID: "example.com", signCount: count).build()
        #expect(
            Array(bytes[33..<37]) == [
                UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF),
            ]
        )
        #expect(try AuthenticatorData(bytes: bytes).signCount == count)
    }

    @Test(
        "§6.5.1: attested credential data gives the AAGUID, credential id and public key",
        arguments: [1, 16, 64, 255, 256, 1023]
    )
    func attestedCredentialData(_ idLength: Int) throws {
        let key = TestSigningKey.generate(.es256)
        var builder = AuthenticatorDataBuilder(rpID: "example.com")
        builder.aaguid = Array(0..<16)
        builder.credentialID = (0..<idLength).map { UInt8(truncatingIfNeeded: $0 * 7) }
        builder.credentialPublicKey = key.coseKey
        let data = try AuthenticatorData(bytes: builder.build())
        let attested = try #require(data.attestedCredentialData)
        #expect(data.flags.contains(.attestedCredentialData))
        #expect(attested.aaguid.bytes == Array(0..<16))
        #expect(attested.credentialID == builder.credentialID)
        #expect(attested.credentialPublicKey.cborRepresentation == key.coseKey)
        #expect(attested.credentialPublicKey.algorithm == .es256)
    }

    @Test(
        "§6.5.1: attested credential data works for every key type",
        arguments: [COSEAlgorithmIdentifier.es384, .es512, .edDSA, .rs256]
    )
    func attestedKeyTypes(_ algorithm: COSEAlgorithmIdentifier) throws {
        let key = TestSigningKey.generate(algorithm)
        var builder = AuthenticatorDataBuilder(rpID: "example.com")
        builder.credentialID = [1, 2, 3, 4]
        builder.credentialPublicKey = key.coseKey
        #expect(
            try AuthenticatorData(bytes: builder.build()).attestedCredentialData?.credentialPublicKey.algorithm
                == algorithm
        )
    }

    static let extensionOutputs = CBORValue.map([
        CBORMapEntry(.text("credProtect"), CBORValue(2)), CBORMapEntry(.text("hmac-secret"), .boolean(true)),
    ])

    @Test("§6.1: with ED, the extension outputs are a CBOR map after the fixed part")
    func extensions() throws {
        var builder = AuthenticatorDataBuilder(rpID: "example.com")
        builder.extensions = CBOREncoder.encode(Self.extensionOutputs)
        let data = try AuthenticatorData(bytes: builder.build())
        #expect(data.flags.contains(.extensionData))
        #expect(data.extensions == Self.extensionOutputs)
        #expect(data.attestedCredentialData == nil)
    }

    @Test("§6.1: AT and ED together: the extensions follow the credential public key")
    func attestedDataAndExtensions() throws {
        var builder = AuthenticatorDataBuilder(rpID: "example.com")
        builder.credentialID = Array(repeating: 0x42, count: 32)
        builder.credentialPublicKey = TestSigningKey.generate(.edDSA).coseKey
        builder.extensions = CBOREncoder.encode(Self.extensionOutputs)
        let data = try AuthenticatorData(bytes: builder.build())
        #expect(data.attestedCredentialData?.credentialID == builder.credentialID)
        #expect(data.extensions == Self.extensionOutputs)
    }

    @Test("AAGUID: 16 bytes, written as a lower-case UUID, and round-trips through JSON")
    func aaguid() throws {
        let aaguid = try AAGUID(bytes: [
            0xAD, 0xCE, 0x00, 0x02, 0x35, 0xBC, 0xC6, 0x0A, 0x64, 0x8B, 0x0B, 0x25, 0xF1, 0xF0, 0x55, 0x03,
        ])
        #expect(aaguid.description == "adce0002-35bc-c60a-648b-0b25f1f05503")
        #expect(AAGUID.zero.description == "00000000-0000-0000-0000-000000000000")
        let json = WebAuthnJSON.encode([aaguid])
        #expect(json == Array(#"["adce0002-35bc-c60a-648b-0b25f1f05503"]"#.utf8))
        #expect(try WebAuthnJSON.decode([AAGUID].self, from: json) == [aaguid])
        #expect(throws: code(.malformedJSON)) {
            try WebAuthnJSON.decode([AAGUID].self, from: Array(#"["adce0002-35bc"]"#.utf8))
        }
        #expect(throws: code(.malformedJSON)) {
            try WebAuthnJSON.decode([AAGUID].self, from: Array(#"["zzce0002-35bc-c60a-648b-0b25f1f05503"]"#.utf8))
        }
    }

    @Test(
        "AAGUID: a JSON string that is not a UUID is rejected",
        arguments: [
            "+dce0002-35bc-c60a-648b-0b25f1f05503", "adce0002-35bc-c60a-648b-0b25f1f055+3",
        ]
    )
    func aaguidNotUUID(_ text: String) {
        #expect(throws: code(.malformedJSON)) {
            try WebAuthnJSON.decode([AAGUID].self, from: Array("[\"\(text)\"]".utf8))
        }
    }

    @Test("AAGUID: any length but 16 is MALFORMED_AUTHENTICATOR_DATA", arguments: [0, 15, 17, 32])
    func aaguidLength(_ length: Int) {
        #expect(throws: code(.malformedAuthenticatorData)) { try AAGUID(bytes: Array(repeating: 1, count: length)) }
    }
}
