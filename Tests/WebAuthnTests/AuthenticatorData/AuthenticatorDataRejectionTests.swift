import PasskeyTesting
import Testing

@testable import WebAuthn

/// Authenticator data that is truncated, has unaccounted bytes or inconsistent flags is rejected (§6.1).
struct AuthenticatorDataRejectionTests {
    static func withCredential(idLength: Int = 16) -> AuthenticatorDataBuilder {
        var builder = AuthenticatorDataBuilder(rpID: "example.com")
        builder.credentialID = Array(repeating: 0x11, count: idLength)
        builder.credentialPublicKey = TestSigningKey.generate(.es256).coseKey
        return builder
    }

    @Test("§6.1: fewer than 37 bytes is MALFORMED_AUTHENTICATOR_DATA", arguments: [0, 1, 32, 33, 36])
    func tooShort(_ length: Int) {
        let bytes = Array(AuthenticatorDataBuilder(rpID: "example.com").build().prefix(length))
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("§6.1: AT set without attested credential data is MALFORMED_AUTHENTICATOR_DATA", arguments: [0, 17])
    func attestedFlagWithoutData(_ followingBytes: Int) {
        let builder = AuthenticatorDataBuilder(rpID: "example.com", flags: [.userPresent, .attestedCredentialData])
        let bytes = builder.build() + Array(repeating: 0, count: followingBytes)
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("§6.1: ED set without extension data is MALFORMED_AUTHENTICATOR_DATA")
    func extensionFlagWithoutData() {
        let bytes = AuthenticatorDataBuilder(rpID: "example.com", flags: [.userPresent, .extensionData]).build()
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: bytes) }
        // Also after attested credential data.
        var builder = Self.withCredential()
        builder.flags.insert(.extensionData)
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: builder.build()) }
    }

    @Test(
        "§6.1: extension data that is not a CBOR map is MALFORMED_AUTHENTICATOR_DATA",
        arguments: ["01", "80", "6161", "40"]
    )
    func extensionsNotAMap(_ encoded: String) {
        var builder = AuthenticatorDataBuilder(rpID: "example.com")
        builder.extensions = hex(encoded)
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: builder.build()) }
    }

    @Test(
        "§6.1: bytes after the last field are MALFORMED_AUTHENTICATOR_DATA",
        arguments: [
            ("none", [0x00] as [UInt8]), ("none", [0xA0]), ("attested", [0x00]), ("attested", [0xA0]),
            ("extensions", [0x00]), ("extensions", [0xA0]),
        ]
    )
    func trailingBytes(_ shape: String, _ trailing: [UInt8]) {
        var builder = shape == "attested" ? Self.withCredential() : AuthenticatorDataBuilder(rpID: "example.com")
        if shape == "extensions" { builder.extensions = [0xA0] }
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: builder.build() + trailing) }
    }

    @Test(
        "§6.1 (BS): backup state without backup eligibility is BACKUP_FLAGS_INVALID",
        arguments: [
            AuthenticatorDataFlags.backupState, [.userPresent, .backupState],
            [.userPresent, .userVerified, .backupState],
        ]
    )
    func backupStateWithoutEligibility(_ flags: AuthenticatorDataFlags) throws {
        #expect(throws: code(.backupFlagsInvalid)) {
            try AuthenticatorData(bytes: AuthenticatorDataBuilder(rpID: "example.com", flags: flags).build())
        }
        // With BE also set, the same data is valid.
        let valid = try AuthenticatorData(
            bytes: AuthenticatorDataBuilder(rpID: "example.com", flags: flags.union(.backupEligible)).build()
        )
        #expect(valid.backupState && valid.backupEligible)
    }

    @Test(
        "§5.1 / §6.5.1: a credential id longer than 1023 bytes is CREDENTIAL_ID_TOO_LONG",
        arguments: [1024, 1025, 4096]
    )
    func credentialIDTooLong(_ length: Int) {
        #expect(throws: code(.credentialIDTooLong)) {
            try AuthenticatorData(bytes: Self.withCredential(idLength: length).build())
        }
    }

    @Test("§6.5.1: the longest allowed credential id (1023 bytes) decodes")
    func credentialIDAtLimit() throws {
        #expect(
            try AuthenticatorData(bytes: Self.withCredential(idLength: 1023).build()).attestedCredentialData?
                .credentialID.count == 1023
        )
    }

    @Test("§6.5.1: an empty credential id is MALFORMED_AUTHENTICATOR_DATA")
    func emptyCredentialID() {
        #expect(throws: code(.malformedAuthenticatorData)) {
            try AuthenticatorData(bytes: Self.withCredential(idLength: 0).build())
        }
    }

    @Test(
        "§6.5.1: attested credential data cut before the id length or inside the id is MALFORMED_AUTHENTICATOR_DATA",
        arguments: [
            37 + 1, 37 + 16, 37 + 17, 37 + 18, 37 + 18 + 1, 37 + 18 + 15, 37 + 18 + 16,
        ]
    )
    func truncatedCredentialID(_ length: Int) {
        let bytes = Array(Self.withCredential(idLength: 16).build().prefix(length))
        #expect(throws: code(.malformedAuthenticatorData)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("§6.5.1: attested credential data cut inside the public key is rejected", arguments: [1, 2, 10, 40, 70])
    func truncatedCredentialKey(_ keyBytes: Int) {
        let bytes = Array(Self.withCredential(idLength: 16).build().prefix(37 + 18 + 16 + keyBytes))
        // The key is CBOR: cutting it is a CBOR error, reported as such.
        #expect(throws: code(.malformedCBOR)) { try AuthenticatorData(bytes: bytes) }
    }

    @Test("§6.5.1: a credential public key that is not a valid COSE key is INVALID_COSE_KEY")
    func invalidCredentialKey() {
        var builder = AuthenticatorDataBuilder(rpID: "example.com")
        builder.credentialID = [1, 2, 3]
        builder.credentialPublicKey = CBOREncoder.encode(.map([CBORMapEntry(CBORValue(1), CBORValue(2))]))
        #expect(throws: code(.invalidCOSEKey)) { try AuthenticatorData(bytes: builder.build()) }
    }

    @Test("Authenticator data over 16 KiB is INPUT_TOO_LARGE")
    func oversize() throws {
        var builder = AuthenticatorDataBuilder(rpID: "example.com")
        // An extension map whose one byte string fills the data to the limit, then one byte more.
        func data(extensionBytes: Int) -> [UInt8] {
            builder.extensions = CBOREncoder.encode(
                .map([CBORMapEntry(.text("x"), .bytes(Array(repeating: 0, count: extensionBytes)))])
            )
            return builder.build()
        }
        let limit = AuthenticatorData.maximumSize
        #expect(limit == 16 * 1024)
        let fits = data(extensionBytes: limit - 37 - 6)
        #expect(fits.count == limit)
        _ = try AuthenticatorData(bytes: fits)
        #expect(throws: code(.inputTooLarge)) { try AuthenticatorData(bytes: data(extensionBytes: limit - 37 - 5)) }
    }
}
