import Foundation
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

    /// Authenticator data whose flags byte (after the 32-byte RP ID hash) is `flags`.
    static func authenticatorData(flags: UInt8) -> [UInt8] { Array(repeating: 0, count: 32) + [flags, 0, 0, 0, 0] }

    static func assertion(
        id: [UInt8],
        source: PlatformCredentialSource,
        userHandle: [UInt8]? = [7, 7]
    ) -> PlatformCredential {
        PlatformCredential(
            id: id,
            clientDataJSON: [1],
            authenticatorData: authenticatorData(flags: 0x01 | 0x04 | 0x08 | 0x10),
            signature: [3],
            userHandle: userHandle,
            source: source
        )
    }

    @Test(
        "a synced passkey the user signs in with here is recorded, with its backup flags; a known one gets lastUsedAt"
    )
    func recordUse() throws {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        var entries: [KeyStoreEntry] = []
        Self.assertion(id: [5], source: .platformProvider(attachment: .platform))
            .recordUse(in: &entries, rpID: "example.com", at: time)
        let recorded = try #require(entries.first)
        #expect(entries.count == 1)
        #expect(recorded.credentialId.bytes == [5])
        #expect(recorded.rpId == "example.com")
        #expect(recorded.userHandle.bytes == [7, 7])
        #expect(recorded.userId == nil)
        #expect(recorded.key.bytes.isEmpty, "the registry holds no key material")
        #expect(recorded.backupEligible && recorded.backupState)
        #expect(recorded.lastUsedAt == time)

        let later = time.addingTimeInterval(60)
        Self.assertion(id: [5], source: .platformProvider(attachment: .platform))
            .recordUse(in: &entries, rpID: "example.com", at: later)
        #expect(entries.count == 1)
        #expect(entries.first?.lastUsedAt == later)
        #expect(entries.first?.createdAt == time)
    }

    @Test("security keys and credentials without a user handle are not recorded")
    func notRecorded() {
        var entries: [KeyStoreEntry] = []
        Self.assertion(id: [6], source: .securityKeyProvider).recordUse(in: &entries, rpID: "example.com", at: Date())
        Self.assertion(id: [7], source: .platformProvider(attachment: .crossPlatform), userHandle: nil)
            .recordUse(in: &entries, rpID: "example.com", at: Date())
        #expect(entries.isEmpty)
    }
}
