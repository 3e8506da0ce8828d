import Crypto
import PasskeyTesting
import Testing

@testable import WebAuthn

/// The client-data steps both ceremonies share: §7.1 steps 7–10 and §7.2 steps 11–14 (and Token Binding).
struct ClientDataStepTests {
    @Test("§7.1 step 7 / §7.2 step 11: clientData.type must be the ceremony's", arguments: CeremonyKind.allCases)
    func ceremonyType(_ kind: CeremonyKind) async throws {
        var setup = StepSetup()
        try await Fixture.run(kind, setup)
        let other = kind == .registration ? "webauthn.get" : "webauthn.create"
        for wrong in [other, "", "webauthn.Create", "payment.get", Fixture.clientDataType(kind) + " "] {
            setup.modify = { _, clientData in clientData.type = wrong }
            await #expect(throws: code(.ceremonyTypeMismatch), "type \(wrong)") { try await Fixture.run(kind, setup) }
        }
    }

    @Test("§7.1 step 7: a relying party may accept another client data type (such as payment.create)")
    func extraAcceptedType() async throws {
        let authenticator = TestAuthenticator()
        var ceremony = Fixture.registrationCeremony()
        let response = try Fixture.registration(authenticator) { _, clientData in clientData.type = "payment.create" }
        await #expect(throws: code(.ceremonyTypeMismatch)) { try await ceremony.verify(response, at: Fixture.now) }
        ceremony.acceptedClientDataTypes = ["webauthn.create", "payment.create"]
        _ = try await ceremony.verify(response, at: Fixture.now)
    }

    @Test(
        "§7.1 step 8 / §7.2 step 12: clientData.challenge must be the issued challenge",
        arguments: CeremonyKind.allCases,
        [
            [] as [UInt8], Array(Fixture.challenge.dropLast()), Fixture.challenge + [0],
            Array(Fixture.challenge.reversed()),
            Fixture.challenge.map { $0 ^ 0x80 },
        ]
    )
    func challenge(_ kind: CeremonyKind, _ wrong: [UInt8]) async throws {
        var setup = StepSetup()
        try await Fixture.run(kind, setup)
        setup.modify = { _, clientData in clientData.challenge = wrong }
        await #expect(throws: code(.challengeMismatch)) { try await Fixture.run(kind, setup) }
    }

    @Test(
        "§7.2 step 12: C.challenge must equal the base64url encoding of the challenge, so a padded encoding is not it"
    )
    func paddedChallenge() throws {
        // Fixture.challenge is 29 bytes: its encoding needs one '=' of padding to be a multiple of 4.
        let padded = Base64URL.encode(Fixture.challenge) + "="
        #expect(try Base64URL.decode(padded) == Fixture.challenge)
        let authenticator = TestAuthenticator()
        let authenticatorData = AuthenticatorDataBuilder(rpID: Fixture.rpID, flags: [.userPresent], signCount: 1)
            .build()
        let clientDataJSON = Array(
            #"{"type":"webauthn.get","challenge":"\#(padded)","origin":"\#(Fixture.origin)"}"#.utf8
        )
        let response = AuthenticationResponseJSON(
            id: Base64URL.encode(authenticator.credentialID),
            rawId: Base64URLBytes(authenticator.credentialID),
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URLBytes(clientDataJSON),
                authenticatorData: Base64URLBytes(authenticatorData),
                signature: Base64URLBytes(
                    authenticator.key.sign(authenticatorData + Array(SHA256.hash(data: clientDataJSON)))
                )
            )
        )
        #expect(throws: code(.challengeMismatch)) {
            try Fixture.authenticationCeremony().verify(response, credential: authenticator.record)
        }
    }

    static let origins = OriginPolicy(allowedOrigins: [
        // The site, a subdomain, a related origin, then native app origins.
        "https://example.com", "https://login.example.com", "https://example.co.uk",
        "android:apk-key-hash:-cd_0LqCxNnpM9HBRAukJgqBtCDCGR8eiXPu9jvbCrw", "ios:bundle-id:com.example.app",
    ])

    @Test(
        "§7.1 step 9 / §7.2 step 13: every origin in the allowlist is accepted (site, subdomain, related origin, apps)",
        arguments: CeremonyKind.allCases,
        ClientDataStepTests.origins.allowedOrigins.sorted()
    )
    func allowedOrigin(_ kind: CeremonyKind, _ origin: String) async throws {
        var setup = StepSetup(origins: Self.origins)
        setup.modify = { _, clientData in clientData.origin = origin }
        try await Fixture.run(kind, setup)
    }

    @Test(
        "§7.1 step 9 / §7.2 step 13: an origin is matched exactly; anything else is ORIGIN_NOT_ALLOWED",
        arguments: CeremonyKind.allCases,
        [
            "https://evil.example", "http://example.com", "https://example.com/", "https://example.com:443",
            "https://EXAMPLE.com",
            "https://example.com.evil.example", "https://sub.login.example.com", "example.com", "", "null",
            "android:apk-key-hash:-cd_0LqCxNnpM9HBRAukJgqBtCDCGR8eiXPu9jvbCrX",
            "android:apk-key-hash:-CD_0LqCxNnpM9HBRAukJgqBtCDCGR8eiXPu9jvbCrw",
            "android:apk-key-hash:-cd_0LqCxNnpM9HBRAukJgqBtCDCGR8eiXPu9jvbCr", "android:apk-key-hash:",
            "ios:bundle-id:com.example.ap",
        ]
    )
    func disallowedOrigin(_ kind: CeremonyKind, _ origin: String) async {
        var setup = StepSetup(origins: Self.origins)
        setup.modify = { _, clientData in clientData.origin = origin }
        await #expect(throws: code(.originNotAllowed)) { try await Fixture.run(kind, setup) }
    }

    @Test(
        "§7.1 step 10 / §7.2 step 14: crossOrigin true is CROSS_ORIGIN_NOT_ALLOWED unless policy allows it",
        arguments: CeremonyKind.allCases
    )
    func crossOrigin(_ kind: CeremonyKind) async throws {
        var setup = StepSetup()
        setup.modify = { _, clientData in clientData.crossOrigin = false }
        try await Fixture.run(kind, setup)
        setup.modify = { _, clientData in clientData.crossOrigin = true }
        await #expect(throws: code(.crossOriginNotAllowed)) { try await Fixture.run(kind, setup) }
        setup.origins.allowCrossOrigin = true
        try await Fixture.run(kind, setup)
    }

    @Test(
        "§7.1 step 10 / §7.2 step 14: topOrigin must be an allowed top-level origin of an allowed cross-origin ceremony",
        arguments: CeremonyKind.allCases
    )
    func topOrigin(_ kind: CeremonyKind) async throws {
        var setup = StepSetup(
            origins: OriginPolicy(
                allowedOrigins: [Fixture.origin],
                allowCrossOrigin: true,
                allowedTopOrigins: ["https://shop.example"]
            )
        )
        setup.modify = { _, clientData in
            clientData.crossOrigin = true
            clientData.topOrigin = "https://shop.example"
        }
        try await Fixture.run(kind, setup)
        // Another top-level origin.
        setup.modify = { _, clientData in
            clientData.crossOrigin = true
            clientData.topOrigin = "https://evil.example"
        }
        await #expect(throws: code(.topOriginNotAllowed)) { try await Fixture.run(kind, setup) }
        // An allowed top-level origin, but the policy does not allow cross-origin ceremonies at all.
        setup.origins.allowCrossOrigin = false
        setup.modify = { _, clientData in clientData.topOrigin = "https://shop.example" }
        await #expect(throws: code(.topOriginNotAllowed)) { try await Fixture.run(kind, setup) }
        setup.modify = { _, clientData in
            clientData.crossOrigin = true
            clientData.topOrigin = "https://shop.example"
        }
        await #expect(throws: code(.crossOriginNotAllowed)) { try await Fixture.run(kind, setup) }
    }

    @Test(
        "Token Binding (Level 2 §7.1 step 10): status supported, a legacy string, or null is accepted",
        arguments: CeremonyKind.allCases,
        [
            #""tokenBinding":{"status":"supported"}"#,
            #""tokenBinding":"unused""#, #""tokenBinding":null"#,
        ]
    )
    func tokenBindingAccepted(_ kind: CeremonyKind, _ member: String) async throws {
        var setup = StepSetup()
        setup.modify = { _, clientData in clientData.extraMembers = [member] }
        try await Fixture.run(kind, setup)
    }

    @Test(
        "Token Binding: 'present' (this relying party never uses Token Binding) or an unknown status is TOKEN_BINDING_INVALID",
        arguments: CeremonyKind.allCases,
        [
            #""tokenBinding":{"status":"present","id":"AQIDBA"}"#, #""tokenBinding":{"status":"present"}"#,
            #""tokenBinding":{"status":"present","id":""}"#,
            #""tokenBinding":{"status":"not-supported"}"#, #""tokenBinding":{"status":"Present","id":"AQ"}"#,
            #""tokenBinding":{"status":""}"#,
        ]
    )
    func tokenBindingRejected(_ kind: CeremonyKind, _ member: String) async {
        var setup = StepSetup()
        setup.modify = { _, clientData in clientData.extraMembers = [member] }
        await #expect(throws: code(.tokenBindingInvalid)) { try await Fixture.run(kind, setup) }
    }

    @Test(
        "§7.1 step 6 / §7.2 step 10: clientDataJSON that does not parse is MALFORMED_CLIENT_DATA",
        arguments: CeremonyKind.allCases
    )
    func malformedClientData(_ kind: CeremonyKind) async {
        var setup = StepSetup()
        setup.modify = { _, clientData in clientData.extraMembers = [#""topOrigin":42"#] }
        await #expect(throws: code(.malformedClientData)) { try await Fixture.run(kind, setup) }
    }
}
