import Foundation
import ProcessTestSupport
import Testing

@testable import PasskeysCommandLine

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `passkeys backup` and `passkeys restore` around a live `passkeys serve` on a SQLite file.
@Suite("passkeys backup and restore")
struct BackupCommandTests {
    static let apiKey = "pk_test_cli_backup_0123456789abcdef"

    /// Starts `passkeys serve` on `database` and returns it with its base URL once it serves.
    static func serve(_ database: String) async throws -> (ChildProcess, String) {
        let executable = try #require(ExecutableTests.executable, "the passkeys executable is not built")
        let server = try ChildProcess.launch(
            executable.path,
            ["serve", "--port", "0", "--database", "sqlite:\(database)", "--api-key", apiKey]
        )
        let prefix = "passkeys serving "
        while true {
            if let line = server.standardOutput.split(separator: "\n").first, line.hasPrefix(prefix) {
                return (server, String(line.dropFirst(prefix.count).prefix { $0 != " " }))
            }
            try #require(server.terminationStatus == nil, "passkeys serve exited: \(server.standardError)")
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Registers a passkey for `user` with `passkeys register` against `server`.
    static func register(_ user: String, server: String, keyStore: String) async -> CommandResult {
        await DeviceEnvironment.$overrides.withValue([
            DeviceEnvironment.apiKey: apiKey, DeviceEnvironment.passphrase: "cli backup test passphrase",
        ]) {
            await passkeys([
                "register", "--server", server, "--origin", server, "--key-store", keyStore, "--user", user,
            ])
        }
    }

    @Test("a backup of a serving database restores, once the server is stopped, to the passkeys it held")
    func roundTripAroundALiveServer() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let database = folder.url.appendingPathComponent("passkeys.sqlite").path
        let backup = folder.url.appendingPathComponent("backup.sqlite").path
        let keyStore = folder.url.appendingPathComponent("keys.json").path
        let (server, url) = try await Self.serve(database)
        for user in ["ada", "grace"] {
            let registered = await Self.register(user, server: url, keyStore: keyStore)
            #expect(registered.exitCode == 0, "\(registered.standardError)")
        }
        let copied = await passkeys(["backup", "--database", "sqlite:\(database)", "--to", backup])
        #expect(copied.exitCode == 0, "\(copied.standardError)")
        #expect(copied.standardOutput.contains("2 users, 2 credentials"), "\(copied.standardOutput)")
        #expect(copied.standardOutput.contains("integrity check ok"))
        // Written after the backup: gone after the restore.
        #expect(await Self.register("linus", server: url, keyStore: keyStore).exitCode == 0)

        let refused = await passkeys(["restore", "--from", backup, "--database", "sqlite:\(database)"])
        #expect(refused.exitCode == 1)
        #expect(refused.standardError.contains("IN_USE"), "\(refused.standardError)")
        #expect(refused.standardError.contains("--force"))
        await server.stop()
        #expect(server.terminationStatus == 0, "\(server.standardError)")

        let restored = await passkeys(["restore", "--from", backup, "--database", "sqlite:\(database)"])
        #expect(restored.exitCode == 0, "\(restored.standardError)")
        #expect(restored.standardOutput.contains("2 users, 2 credentials"), "\(restored.standardOutput)")
        let (again, againURL) = try await Self.serve(database)
        defer { Task { await again.stop() } }
        for (user, count) in [("ada", 1), ("grace", 1), ("linus", 0)] {
            var request = URLRequest(url: URL(string: "\(againURL)/v1/users/\(user)/credentials")!)
            request.setValue("Bearer \(Self.apiKey)", forHTTPHeaderField: "Authorization")
            let (data, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode
            if count == 0 {
                #expect(status == 404 || !String(decoding: data, as: UTF8.self).contains("credentialId"))
            } else {
                #expect(status == 200)
                #expect(String(decoding: data, as: UTF8.self).components(separatedBy: "credentialId").count == 2)
            }
        }
        await again.stop()
    }

    @Test(
        "backup and restore of a database they do not copy say what to use, with a stable code",
        arguments: [
            (["backup", "--database", "postgres://u:p@127.0.0.1:5432/db", "--to", "x"], 1, "pg_dump"),
            (["restore", "--from", "x", "--database", "postgresql://u@db.internal/passkeys"], 1, "pg_restore"),
            (["backup", "--database", "memory", "--to", "x"], 1, "BACKUP_UNSUPPORTED"),
            (["backup", "--database", "mysql://db", "--to", "x"], 2, "INVALID_DATABASE"),
            (["backup", "--database", "sqlite:/nonexistent/passkeys.sqlite", "--to", "x"], 1, "NOT_FOUND"),
        ]
    )
    func unsupportedDatabases(arguments: [String], exitCode: Int32, says: String) async {
        let result = await passkeys(arguments)
        #expect(result.exitCode == exitCode)
        #expect(result.standardError.contains(says), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }
}
