import Foundation
import Testing
import WebAuthn

/// The example responses in `docs/examples/` (used by the README's first command) must keep verifying.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    struct Parameters: Decodable {
        let relyingPartyID: String
        let origin: String
        let registrationChallenge: String
        let authenticationChallenge: String
        let credentialPublicKey: String
        let userHandle: String
    }

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/examples")

    func load(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Self.examples.appendingPathComponent(name)))
    }

    @Test("the example registration and authentication verify with the documented parameters")
    func examplesVerify() async throws {
        let parameters = try JSONDecoder().decode(Parameters.self, from: Data(try load("parameters.json")))
        let registration = try await RegistrationCeremony(
            challenge: try Base64URL.decode(parameters.registrationChallenge),
            relyingPartyID: parameters.relyingPartyID,
            origins: OriginPolicy(parameters.origin)
        ).verify(try RegistrationResponseJSON(jsonBytes: try load("registration.json")), at: Date())
        #expect(Base64URL.encode(registration.credentialPublicKey.cborRepresentation) == parameters.credentialPublicKey)

        let userHandle = try Base64URL.decode(parameters.userHandle)
        let record = CredentialRecord(
            id: registration.credentialID,
            publicKey: registration.credentialPublicKey,
            signCount: registration.signCount,
            userHandle: userHandle
        )
        let authentication = try AuthenticationCeremony(
            challenge: try Base64URL.decode(parameters.authenticationChallenge),
            relyingPartyID: parameters.relyingPartyID,
            origins: OriginPolicy(parameters.origin),
            user: .discoverable
        ).verify(try AuthenticationResponseJSON(jsonBytes: try load("authentication.json")), credential: record)
        #expect(authentication.signCount == 1)
        #expect(authentication.userHandle == userHandle)
    }
}

@Suite("Documentation of error codes")
struct ErrorCodeDocumentationTests {
    @Test("docs/errors.md lists every error code")
    func everyCodeIsDocumented() throws {
        let text = try String(
            contentsOf: DocumentationExampleTests.examples.deletingLastPathComponent().appendingPathComponent(
                "errors.md"
            ),
            encoding: .utf8
        )
        for code in WebAuthnError.Code.all {
            #expect(text.contains("`\(code.rawValue)`"), "docs/errors.md does not describe \(code.rawValue)")
        }
    }
}
