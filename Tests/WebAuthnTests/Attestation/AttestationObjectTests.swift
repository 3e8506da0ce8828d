import PasskeyTesting
import Testing

@testable import WebAuthn

/// §6.5 / §7.1 step 12: the attestation object is a CBOR map of exactly fmt, attStmt and authData.
struct AttestationObjectTests {
    static func encodedText(_ text: String) -> [UInt8] { CBOREncoder.encode(.text(text)) }

    @Test("§6.5: the attestation object decodes into format, statement and authenticator data")
    func decodes() throws {
        let response = try Fixture.registration(TestAuthenticator(), attestation: .packedSelf)
        let object = try AttestationObject(bytes: response.response.attestationObject.bytes)
        #expect(object.format == .packed)
        #expect(object.statement[text: "alg"] == CBORValue(-7))
        #expect(object.authenticatorData.attestedCredentialData != nil)
    }

    @Test("§6.5: keys in a client's own order are accepted (they are still unique)")
    func nonCanonicalOrder() throws {
        let authData = AuthenticatorDataBuilder(rpID: "example.com").build()
        let bytes =
            [0xA3] + Self.encodedText("authData") + CBOREncoder.encode(.bytes(authData))
            + Self.encodedText("fmt") + Self.encodedText("none") + Self.encodedText("attStmt") + [0xA0]
        #expect(try AttestationObject(bytes: bytes).format == .none)
        let duplicate =
            [0xA3] + Self.encodedText("fmt") + Self.encodedText("none") + Self.encodedText("fmt")
            + Self.encodedText("none")
            + Self.encodedText("authData") + CBOREncoder.encode(.bytes(authData))
        #expect(throws: code(.malformedCBOR)) { try AttestationObject(bytes: duplicate) }
    }

    static let validEntries: [CBORMapEntry] = [
        CBORMapEntry(.text("fmt"), .text("none")), CBORMapEntry(.text("attStmt"), .map([])),
        CBORMapEntry(.text("authData"), .bytes(AuthenticatorDataBuilder(rpID: "example.com").build())),
    ]

    @Test(
        "§6.5: a missing, extra or mistyped member is MALFORMED_ATTESTATION_OBJECT",
        arguments: [
            "no fmt", "no attStmt", "no authData", "extra member", "fmt not text", "attStmt not a map",
            "authData not bytes", "not a map", "key not text",
        ]
    )
    func malformed(_ defect: String) throws {
        _ = try AttestationObject(bytes: CBOREncoder.encode(.map(Self.validEntries)))
        var entries = Self.validEntries
        switch defect {
        case "no fmt": entries.remove(at: 0)
        case "no attStmt": entries.remove(at: 1)
        case "no authData": entries.remove(at: 2)
        case "extra member": entries.append(CBORMapEntry(.text("ep"), .boolean(true)))
        case "fmt not text": entries[0].value = .bytes(Array("none".utf8))
        case "attStmt not a map": entries[1].value = .array([])
        case "authData not bytes": entries[2].value = .text("authData")
        case "key not text": entries[0].key = CBORValue(1)
        default: break
        }
        let value: CBORValue = defect == "not a map" ? .array(entries.map(\.value)) : .map(entries)
        #expect(throws: code(.malformedAttestationObject)) { try AttestationObject(bytes: CBOREncoder.encode(value)) }
    }

    @Test("§7.1 step 12: bytes that are not CBOR are MALFORMED_CBOR", arguments: ["", "ff", "a3", "bf ff"])
    func notCBOR(_ encoded: String) {
        #expect(throws: code(.malformedCBOR)) { try AttestationObject(bytes: hex(encoded)) }
    }

    @Test("§7.1 step 12: authenticator data inside that does not decode is MALFORMED_AUTHENTICATOR_DATA")
    func malformedAuthenticatorData() {
        var entries = Self.validEntries
        entries[2].value = .bytes(Array(repeating: 0, count: 36))
        #expect(throws: code(.malformedAuthenticatorData)) {
            try AttestationObject(bytes: CBOREncoder.encode(.map(entries)))
        }
    }

    @Test("An attestation object over 64 KiB is INPUT_TOO_LARGE")
    func oversize() {
        var entries = Self.validEntries
        entries[1].value = .map([
            CBORMapEntry(.text("pad"), .bytes(Array(repeating: 0, count: AttestationObject.maximumSize)))
        ])
        #expect(throws: code(.inputTooLarge)) { try AttestationObject(bytes: CBOREncoder.encode(.map(entries))) }
    }
}
