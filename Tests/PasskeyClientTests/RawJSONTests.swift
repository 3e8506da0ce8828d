import Foundation
import PasskeyClient
import PasskeyTesting
import Testing
import WebAuthn

@Suite("Raw create(requestJSON:) and authenticate(requestJSON:)")
struct RawJSONTests {
    static func client(_ authenticator: any Authenticator = ScriptableAuthenticator()) throws -> PasskeyClient {
        PasskeyClient(
            configuration: try PasskeyClientConfiguration(
                rpDomain: Fixtures.rpID,
                serverBaseURL: URL(string: "https://passkeys.example.com")!,
                storage: "tests"
            ),
            authenticator: authenticator
        )
    }

    static var creationJSON: String { String(decoding: WebAuthnJSON.encode(Fixtures.creationOptions()), as: UTF8.self) }
    static var requestJSON: String { String(decoding: WebAuthnJSON.encode(Fixtures.requestOptions()), as: UTF8.self) }

    @Test(
        "options at the top level or wrapped in {\"publicKey\": …} give Level 3 JSON that verifies",
        arguments: [false, true]
    )
    func roundTrip(wrapped: Bool) async throws {
        let client = try Self.client()
        let creation = wrapped ? #"{"publicKey":\#(Self.creationJSON)}"# : Self.creationJSON
        let registrationText = try await client.create(requestJSON: creation)
        let registration = try RegistrationResponseJSON(jsonBytes: Array(registrationText.utf8))
        #expect(registrationText.contains(#""type":"public-key""#))
        #expect(!registrationText.contains("="), "binary fields are unpadded base64url")
        let verified = try await RegistrationCeremony(
            challenge: Fixtures.challenge,
            relyingPartyID: Fixtures.rpID,
            origins: OriginPolicy(Fixtures.origin)
        )
        .verify(registration, at: Date())

        let request = wrapped ? #"{"publicKey":\#(Self.requestJSON)}"# : Self.requestJSON
        let assertionText = try await client.authenticate(requestJSON: request)
        let assertion = try AuthenticationResponseJSON(jsonBytes: Array(assertionText.utf8))
        _ = try AuthenticationCeremony(
            challenge: Fixtures.challenge,
            relyingPartyID: Fixtures.rpID,
            origins: OriginPolicy(Fixtures.origin),
            user: .discoverable
        ).verify(
            assertion,
            credential: CredentialRecord(
                id: verified.credentialID,
                publicKey: verified.credentialPublicKey,
                signCount: 0,
                userHandle: Fixtures.userHandle
            )
        )
    }

    @Test(
        "invalid options JSON is INVALID_INPUT",
        arguments: [
            "", "[]", "not json", #"{"publicKey": {}}"#, #"{"challenge": "not base64url!", "rp": {"name": "x"}}"#,
            #"{"challenge": "AAAA", "rp": {"id": "example.com", "name": "x"}, "user": {"id": "AQ", "name": "a", "displayName": "a"}, "pubKeyCredParams": []}"#,
        ]
    )
    func invalid(json: String) async throws {
        let client = try Self.client()
        #expect(await passkeyError { _ = try await client.create(requestJSON: json) }?.code == .invalidInput)
        #expect(await passkeyError { _ = try await client.authenticate(requestJSON: json) }?.code == .invalidInput)
    }

    @Test("an RP ID other than rpDomain is RELYING_PARTY_MISMATCH; a parent domain is allowed")
    func relyingParty() async throws {
        var options = Fixtures.creationOptions()
        options.rp.id = "other.example"
        let client = try Self.client()
        #expect(
            await passkeyError {
                _ = try await client.create(requestJSON: String(decoding: WebAuthnJSON.encode(options), as: UTF8.self))
            }?.code == .relyingPartyMismatch
        )

        let subdomain = PasskeyClient(
            configuration: try PasskeyClientConfiguration(
                rpDomain: "login.example.com",
                serverBaseURL: URL(string: "https://passkeys.example.com")!,
                storage: "tests"
            ),
            authenticator: ScriptableAuthenticator()
        )
        _ = try await subdomain.create(requestJSON: Self.creationJSON)
        options.rp.id = "com"
        #expect(
            await passkeyError {
                _ = try await subdomain.create(
                    requestJSON: String(decoding: WebAuthnJSON.encode(options), as: UTF8.self)
                )
            }?.code == .relyingPartyMismatch
        )
    }

    @Test(
        "excludeCredentials in raw options gives PASSKEY_ALREADY_EXISTS; allowCredentials with no match gives PASSKEY_NOT_FOUND"
    )
    func lists() async throws {
        let client = try Self.client()
        let registration = try RegistrationResponseJSON(
            jsonBytes: Array(try await client.create(requestJSON: Self.creationJSON).utf8)
        )
        let excluded = String(
            decoding: WebAuthnJSON.encode(Fixtures.creationOptions(exclude: [registration.rawId.bytes])),
            as: UTF8.self
        )
        #expect(
            await passkeyError { _ = try await client.create(requestJSON: excluded) }?.code == .passkeyAlreadyExists
        )
        let unmatched = String(
            decoding: WebAuthnJSON.encode(Fixtures.requestOptions(allow: [[9, 9, 9]])),
            as: UTF8.self
        )
        #expect(
            await passkeyError { _ = try await client.authenticate(requestJSON: unmatched) }?.code == .passkeyNotFound
        )
    }

    @Test("the client checks the options as a browser does")
    func optionChecks() async throws {
        let webAuthn = WebAuthnClient(authenticator: ScriptableAuthenticator(), origin: Fixtures.origin)
        var shortChallenge = Fixtures.creationOptions()
        shortChallenge.challenge = [1, 2, 3]
        #expect(await passkeyError { _ = try await webAuthn.create(shortChallenge) }?.code == .invalidInput)
        var longUserID = Fixtures.creationOptions()
        longUserID.user.id = Base64URLBytes(Array(repeating: 1, count: 65))
        #expect(await passkeyError { _ = try await webAuthn.create(longUserID) }?.code == .invalidInput)
        var noRPID = Fixtures.requestOptions()
        noRPID.rpId = nil
        _ = await passkeyError { _ = try await webAuthn.get(noRPID) }
        let android = WebAuthnClient(authenticator: ScriptableAuthenticator(), origin: "android:apk-key-hash:abc")
        _ = try await android.create(Fixtures.creationOptions())
    }
}
