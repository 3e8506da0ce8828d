import PasskeyClient
import Testing
import WebAuthn

/// The responses the Apple platform adapter makes from what the system returned: attachment by fact.
@Suite("Apple adapter's responses")
struct PlatformCredentialTests {
    static let sources: [(PlatformCredentialSource, AuthenticatorAttachment, [AuthenticatorTransport]?)] = [
        // This device's passkey (iCloud Keychain or another passkey manager).
        (.platformProvider(attachment: .platform), .platform, [.internal, .hybrid]),
        // A phone's passkey used through hybrid comes back from the platform provider as cross-platform.
        (.platformProvider(attachment: .crossPlatform), .crossPlatform, [.hybrid]),
        (.securityKeyProvider, .crossPlatform, nil),
    ]

    @Test("the attachment is the one the system reports, not the provider's class", arguments: sources)
    func attachment(
        source: PlatformCredentialSource,
        attachment: AuthenticatorAttachment,
        transports: [AuthenticatorTransport]?
    ) throws {
        let credential = PlatformCredential(id: [1, 2], clientDataJSON: [3], attestationObject: [4], source: source)
        let response = try credential.registrationResponse()
        #expect(response.authenticatorAttachment == attachment)
        #expect(response.response.transports == transports)
        #expect(response.rawId.bytes == [1, 2])
    }

    @Test("an assertion keeps its bytes; an empty user handle is left out")
    func assertion() throws {
        let credential = PlatformCredential(
            id: [9],
            clientDataJSON: [1],
            authenticatorData: [2],
            signature: [3],
            userHandle: [],
            source: .platformProvider(attachment: .crossPlatform)
        )
        let response = try credential.authenticationResponse()
        #expect(response.response.authenticatorData.bytes == [2])
        #expect(response.response.signature.bytes == [3])
        #expect(response.response.userHandle == nil)
        #expect(response.authenticatorAttachment == .crossPlatform)
    }

    @Test("a credential without what its ceremony needs gives no response")
    func incomplete() {
        let bare = PlatformCredential(id: [1], clientDataJSON: [2], source: .securityKeyProvider)
        #expect(throws: PasskeyError(.hardwareNotAvailable, "")) { try bare.registrationResponse() }
        #expect(throws: PasskeyError(.hardwareNotAvailable, "")) { try bare.authenticationResponse() }
    }
}
