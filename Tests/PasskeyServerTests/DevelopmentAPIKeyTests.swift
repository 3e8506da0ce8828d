import Foundation
import PasskeyServer
import Testing

/// The key `passkeys serve` runs with when none is configured: only for localhost, and the same across restarts.
struct DevelopmentAPIKeyTests {
    @Test func anyRelyingPartyButLocalhostMustConfigureAKey() throws {
        var configuration = ServerConfiguration()
        configuration.rpId = "example.com"
        configuration.webOrigins = ["https://example.com"]
        let refused = #expect(throws: ConfigurationError.self) { try DevelopmentAPIKey.load(for: configuration) }
        #expect(refused?.field == "apiKeys")
        #expect(refused?.message.contains("--api-key") == true)
    }

    @Test func withSQLiteTheKeyIsKeptBesideTheDatabaseForItsOwnerOnly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("devkey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServerConfiguration()
        configuration.database = .sqlite(SQLiteDatabase(path: folder.appendingPathComponent("passkeys.sqlite").path))

        let first = try DevelopmentAPIKey.load(for: configuration)
        #expect(first.key.hasPrefix("pk_dev_"))
        let file = try #require(first.file)
        #expect(file.hasSuffix("passkeys.sqlite.api-key"))
        let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        #expect(try DevelopmentAPIKey.load(for: configuration) == first, "the same key after a restart")

        try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: file))
        let foreign = #expect(throws: ConfigurationError.self) { try DevelopmentAPIKey.load(for: configuration) }
        #expect(foreign?.message.contains("delete it") == true)
    }

    @Test func withAnotherDatabaseItLastsOneRun() throws {
        var configuration = ServerConfiguration()
        configuration.database = .memory
        let key = try DevelopmentAPIKey.load(for: configuration)
        #expect(key.file == nil)
        #expect(try DevelopmentAPIKey.load(for: configuration).key != key.key)
    }
}
