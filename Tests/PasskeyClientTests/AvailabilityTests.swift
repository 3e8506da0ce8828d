import Foundation
import PasskeyClient
import Testing

/// `isPlatformAuthenticatorAvailable()` probes: the software authenticator is available when its key store opens,
/// or can be created, and not otherwise.
@Suite("Platform authenticator availability")
struct AvailabilityTests {
    static let protection = KeyStoreProtection.passphrase("correct horse battery staple", .insecureForTesting)

    static func client(_ keyStore: any KeyStore) throws -> PasskeyClient {
        PasskeyClient(
            configuration: try PasskeyClientConfiguration(
                rpDomain: "example.com",
                serverBaseURL: URL(string: "https://passkeys.example.com")!,
                storage: "com.example.tests"
            ),
            authenticator: SoftwareAuthenticator(keyStore: keyStore)
        )
    }

    @Test("a key store that does not exist yet but can be created: available, and the probe writes no file")
    func creatable() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = EncryptedFileKeyStore(path: folder.file("device/keys.json"), protection: Self.protection)
        #expect(try await Self.client(store).isPlatformAuthenticatorAvailable())
        #expect(!store.exists)
    }

    @Test("an existing key store that opens: available")
    func opens() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = EncryptedFileKeyStore(path: folder.file("keys.json"), protection: Self.protection)
        _ = try await SoftwareAuthenticator(keyStore: store).makeCredential(Fixtures.creationRequest())
        #expect(try await Self.client(store).isPlatformAuthenticatorAvailable())
        #expect(try await Self.client(store).isSupported())
    }

    @Test("a key store another passphrase protects, or one whose folder is a file: not available")
    func unavailable() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("keys.json")
        _ = try await SoftwareAuthenticator(keyStore: EncryptedFileKeyStore(path: path, protection: Self.protection))
            .makeCredential(Fixtures.creationRequest())
        let wrong = EncryptedFileKeyStore(path: path, protection: .passphrase("wrong", .insecureForTesting))
        let wrongClient = try Self.client(wrong)
        #expect(await !wrongClient.isPlatformAuthenticatorAvailable())
        await #expect(throws: PasskeyError.self) { try await wrong.checkAvailable() }

        #expect(FileManager.default.createFile(atPath: folder.file("plain"), contents: Data("x".utf8)))
        let underAFile = EncryptedFileKeyStore(path: folder.file("plain/keys.json"), protection: Self.protection)
        let underAFileClient = try Self.client(underAFile)
        #expect(await !underAFileClient.isPlatformAuthenticatorAvailable())
        let error = await passkeyError { try await underAFile.checkAvailable() }
        #expect(error?.code == .keyStoreUnavailable)
    }
}
