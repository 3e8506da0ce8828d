import Foundation
import PasskeyClient
import PasskeyServer
import PasskeyTesting
import Testing

/// The passkeys on the device — the SDK's key store, not the server's list — and when to offer a new one, against a
/// live server.
@Suite("Local passkeys")
struct LocalCredentialsTests {
    @discardableResult
    static func enroll(
        _ client: PasskeyClient,
        _ server: LiveServer.Context,
        userId: String?,
        as user: String
    )
        async throws -> EnrollmentResult
    {
        let attempt = try await server.backend.createRegistration(userId: user, userName: user)
        return try await client.enroll(
            EnrollmentInput(
                registrationAttemptId: attempt.registrationAttemptId,
                clientToken: attempt.clientToken,
                userId: userId
            )
        )
    }

    static func activeOnServer(_ server: LiveServer.Context, _ userId: String) async throws -> [String] {
        try await server.backend.credentials(ofUser: userId).filter { $0.status == "active" }.map(\.credentialId)
    }

    @Test("listCredentials(userId:) lists this device's passkeys of one user, whatever the server holds")
    func listByUser() async throws {
        try await LiveServer.run { server in
            let client = try server.client(SoftwareAuthenticator(keyStore: MemoryKeyStore()))
            let ann = try await Self.enroll(client, server, userId: "ann", as: "ann")
            let ben = try await Self.enroll(client, server, userId: "ben", as: "ben")
            // Another device of Ann's: on the server, not here.
            let laptop = try server.client(SoftwareAuthenticator(keyStore: MemoryKeyStore()))
            try await Self.enroll(laptop, server, userId: "ann", as: "ann")

            #expect(try await client.listCredentials(userId: "ann").map(\.credentialId) == [ann.credentialId])
            #expect(try await client.listCredentials(userId: "ben").map(\.credentialId) == [ben.credentialId])
            #expect(try await client.listCredentials(userId: "cal").isEmpty)
            #expect(try await Self.activeOnServer(server, "ann").count == 2)
            #expect(
                await passkeyError { _ = try await client.listCredentials(userId: "not a user id") }?.code
                    == .invalidInput
            )
        }
    }

    @Test("deleteCredential returns the passkey it deleted; a second delete is PASSKEY_NOT_FOUND")
    func deleteReturnsTheCredential() async throws {
        try await LiveServer.run { server in
            let client = try server.client(SoftwareAuthenticator(keyStore: MemoryKeyStore()))
            let enrolled = try await Self.enroll(client, server, userId: "dora", as: "dora")
            let deleted = try await client.deleteCredential(id: enrolled.credentialId)
            #expect(deleted == enrolled.credential)
            #expect(deleted.userId == "dora")
            #expect(try await client.listCredentials().isEmpty)
            let again = await passkeyError { try await client.deleteCredential(id: enrolled.credentialId) }
            #expect(again?.code == .passkeyNotFound)
        }
    }

    @Test("a passkey the server no longer has does not count: revoked there, a new one is offered")
    func revokedOnServerIsOffered() async throws {
        try await LiveServer.run { server in
            let client = try server.client(SoftwareAuthenticator(keyStore: MemoryKeyStore()))
            let enrolled = try await Self.enroll(client, server, userId: "eli", as: "eli")
            #expect(
                try await !client.shouldPromptToCreatePasskey(
                    userId: "eli",
                    serverCredentialIds: Self.activeOnServer(server, "eli")
                )
            )
            try await server.backend.revokeCredential(id: enrolled.credentialId)
            let active = try await Self.activeOnServer(server, "eli")
            #expect(active.isEmpty)
            #expect(try await client.shouldPromptToCreatePasskey(userId: "eli", serverCredentialIds: active))
            // Without the server's list, the SDK knows only its own record, which still holds the key.
            #expect(try await !client.shouldPromptToCreatePasskey(userId: "eli"))
        }
    }

    @Test("a synced passkey the user signed in with here counts once the server's list names it")
    func syncedPasskeyUsedHereCounts() async throws {
        try await LiveServer.run { server in
            // A passkey this device holds without knowing whose it is: synced from another device of the user.
            let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore(), behaviour: .syncedPlatform)
            let client = try server.client(authenticator)
            try await Self.enroll(client, server, userId: nil, as: "fynn")
            let session = try await server.backend.createAuthentication(userId: "fynn")
            _ = try await client.authenticate(
                AuthenticationInput(sessionId: session.biometricPasskeySessionId, clientToken: session.clientToken)
            )
            let active = try await Self.activeOnServer(server, "fynn")
            #expect(try await client.shouldPromptToCreatePasskey(userId: "fynn"))
            #expect(try await !client.shouldPromptToCreatePasskey(userId: "fynn", serverCredentialIds: active))
            // Another user's list does not make it theirs.
            #expect(try await client.shouldPromptToCreatePasskey(userId: "gus", serverCredentialIds: []))
        }
    }

    @Test("nothing is offered where passkeys cannot be used (the key store does not open)")
    func unavailableDeviceIsNotOffered() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("keys.json")
        let right = SoftwareAuthenticator(
            keyStore: EncryptedFileKeyStore(path: path, protection: .passphrase("right", .insecureForTesting))
        )
        _ = try await right.makeCredential(Fixtures.creationRequest(userId: "hal"))
        let wrong = PasskeyClient(
            configuration: try PasskeyClientConfiguration(
                rpDomain: "example.com",
                serverBaseURL: URL(string: "https://passkeys.example.com")!,
                storage: "com.example.tests"
            ),
            authenticator: SoftwareAuthenticator(
                keyStore: EncryptedFileKeyStore(path: path, protection: .passphrase("wrong", .insecureForTesting))
            )
        )
        #expect(await !wrong.isPlatformAuthenticatorAvailable())
        #expect(try await !wrong.shouldPromptToCreatePasskey(userId: "hal"))
        #expect(try await !wrong.shouldPromptToCreatePasskey(userId: "hal", serverCredentialIds: []))
    }
}
