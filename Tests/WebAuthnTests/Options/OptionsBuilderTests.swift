import Foundation
import PasskeyTesting
import Testing

@testable import WebAuthn

@Suite("Options builders")
struct OptionsBuilderTests {
    let challenge = [UInt8](repeating: 7, count: 32)
    let user = PublicKeyCredentialUserEntityJSON(
        id: Base64URLBytes([UInt8](repeating: 1, count: 32)),
        name: "ada@example.com",
        displayName: "Ada"
    )

    @Test("creation options carry the RP, user, challenge and algorithms in order")
    func creationOptions() throws {
        var builder = CreationOptionsBuilder(relyingPartyID: "example.com", relyingPartyName: "Example")
        builder.userVerification = .required
        let excluded = PublicKeyCredentialDescriptorJSON(id: [9, 9, 9])
        let options = try builder.build(user: user, challenge: challenge, excludeCredentials: [excluded])
        #expect(options.rp.id == "example.com")
        #expect(options.challenge.bytes == challenge)
        #expect(options.pubKeyCredParams.map(\.alg) == [.es256, .edDSA, .rs256])
        #expect(options.excludeCredentials == [excluded])
        #expect(options.authenticatorSelection?.residentKey == .required)
        #expect(options.authenticatorSelection?.requireResidentKey == true)
        #expect(options.authenticatorSelection?.userVerification == .required)
        #expect(options.extensions?["credProps"] == .bool(true))
    }

    @Test(
        "creation options reject bad input with INVALID_OPTIONS",
        arguments: [
            ("Example.com", 32, 32), ("https://example.com", 32, 32), ("192.168.0.1", 32, 32), ("example..com", 32, 32),
            ("-example.com", 32, 32), ("example.com", 15, 32), ("example.com", 65, 32), ("example.com", 32, 0),
            ("example.com", 32, 65),
        ]
    )
    func creationOptionsRejections(rpID: String, challengeLength: Int, userHandleLength: Int) {
        let builder = CreationOptionsBuilder(relyingPartyID: rpID, relyingPartyName: "Example")
        let user = PublicKeyCredentialUserEntityJSON(
            id: Base64URLBytes([UInt8](repeating: 1, count: userHandleLength)),
            name: "ada",
            displayName: "Ada"
        )
        #expect(throws: WebAuthnError(.invalidOptions, "")) {
            try builder.build(user: user, challenge: [UInt8](repeating: 1, count: challengeLength))
        }
    }

    @Test(
        "creation options reject duplicate, empty and unsupported algorithm lists",
        arguments: [
            [COSEAlgorithmIdentifier](), [.es256, .es256], [COSEAlgorithmIdentifier(rawValue: -999)],
        ]
    )
    func algorithmRejections(algorithms: [COSEAlgorithmIdentifier]) {
        var builder = CreationOptionsBuilder(relyingPartyID: "example.com", relyingPartyName: "Example")
        builder.algorithms = algorithms
        #expect(throws: WebAuthnError(.invalidOptions, "")) { try builder.build(user: user, challenge: challenge) }
    }

    @Test("request options: allowCredentials omitted when empty (usernameless)")
    func requestOptions() throws {
        let builder = RequestOptionsBuilder(relyingPartyID: "example.com")
        let discoverable = try builder.build(challenge: challenge)
        #expect(discoverable.allowCredentials == nil)
        #expect(discoverable.rpId == "example.com")
        let named = try builder.build(
            challenge: challenge,
            allowCredentials: [PublicKeyCredentialDescriptorJSON(id: [1, 2])]
        )
        #expect(named.allowCredentials?.count == 1)
        #expect(throws: WebAuthnError(.invalidOptions, "")) { try builder.build(challenge: [1, 2, 3]) }
    }

    @Test("a ceremony made from its options verifies the response to them")
    func optionsDriveCeremonies() async throws {
        var builder = CreationOptionsBuilder(relyingPartyID: "example.com", relyingPartyName: "Example")
        builder.algorithms = [.edDSA]
        let creation = try builder.build(user: user, challenge: challenge)
        let registration = try RegistrationCeremony(options: creation, origins: OriginPolicy("https://example.com"))
        #expect(registration.allowedAlgorithms == [.edDSA])

        var authenticator = TestAuthenticator(algorithm: .es256, userHandle: user.id.bytes)
        let response = try authenticator.registrationResponse(
            challenge: challenge,
            origin: "https://example.com",
            rpID: "example.com"
        )
        await #expect(throws: WebAuthnError(.algorithmNotAllowed, "")) {
            try await registration.verify(response, at: Date())
        }

        let request = try RequestOptionsBuilder(relyingPartyID: "example.com").build(
            challenge: challenge,
            allowCredentials: [PublicKeyCredentialDescriptorJSON(id: Base64URLBytes(authenticator.credentialID))]
        )
        let authentication = try AuthenticationCeremony(
            options: request,
            origins: OriginPolicy("https://example.com"),
            user: .identified(userHandle: user.id.bytes)
        )
        let record = authenticator.record
        let assertion = authenticator.authenticationResponse(
            challenge: challenge,
            origin: "https://example.com",
            rpID: "example.com"
        )
        #expect(try authentication.verify(assertion, credential: record).signCount == 1)
    }
}
