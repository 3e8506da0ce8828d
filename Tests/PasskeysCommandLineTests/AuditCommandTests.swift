import Foundation
import PasskeyStorage
import PasskeyStoreSQLite
import PasskeyTesting
import ProcessTestSupport
import SQLiteNIO
import Testing

@testable import PasskeysCommandLine

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `passkeys audit verify` on real SQLite files.
@Suite("passkeys audit verify")
struct AuditCommandTests {
    static let now = Date(timeIntervalSince1970: 1_764_000_000)

    /// A SQLite file in `folder` with eight audit events and a signed checkpoint; returns its path and the key.
    func prepare(in folder: TemporaryDirectory) async throws -> (path: String, key: String) {
        let path = folder.url.appendingPathComponent("passkeys.sqlite").path
        let store = try await SQLitePasskeyStore.open(path: path)
        let key = try await AuditTampering.prepare(store, at: Self.now)
        await store.close()
        return (path, Data(key).base64EncodedString())
    }

    func tamper(_ path: String, _ statements: [String]) async throws {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        for statement in statements { _ = try await connection.query(statement) }
        try await connection.close()
    }

    @Test("an untouched file verifies against its key; the report says what it covered")
    func verified() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (path, key) = try await prepare(in: folder)
        let result = await passkeys(["audit", "verify", "--database", path, "--public-key", key])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("Verified the audit log of sqlite:\(path): events 1 to 8"))
        let unpinned = await passkeys(["audit", "verify", "--database", "sqlite:" + path])
        #expect(unpinned.exitCode == 0)
        #expect(unpinned.standardOutput.contains("pass --public-key to pin yours"))
    }

    @Test("a tampered file fails with the problem's code and event, on one line", arguments: AuditTampering.all)
    func tampered(_ tampering: AuditTampering) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (path, key) = try await prepare(in: folder)
        try await tamper(path, tampering.statements)
        let result = await passkeys(["audit", "verify", "--database", path, "--public-key", key])
        #expect(result.exitCode == 1)
        #expect(result.standardError.hasPrefix("error: \(tampering.code.rawValue) at \(tampering.sequence): "))
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test("another key than the one that signed is refused; bad keys and missing files are reported")
    func refusals() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (path, _) = try await prepare(in: folder)
        let other = Data(repeating: 7, count: 32).base64EncodedString()
        let untrusted = await passkeys(["audit", "verify", "--database", path, "--public-key", other])
        #expect(untrusted.exitCode == 1)
        #expect(untrusted.standardError.hasPrefix("error: CHECKPOINT_KEY_UNTRUSTED at 8: "))
        let badKey = await passkeys(["audit", "verify", "--database", path, "--public-key", "not-a-key"])
        #expect(badKey.exitCode == 2)
        let missing = await passkeys(["audit", "verify", "--database", folder.url.path + "/none.sqlite"])
        #expect(missing.exitCode == 1)
        #expect(missing.standardError.hasPrefix("error: FILE_UNREADABLE: "))
        #expect(!FileManager.default.fileExists(atPath: folder.url.path + "/none.sqlite"))
        let memory = await passkeys(["audit", "verify", "--database", "mysql://x"])
        #expect(memory.exitCode == 2)
    }

    @Test("passkeys serve signs the log at start with the key beside its database, which verify then trusts")
    func servedDatabase() async throws {
        let executable = try #require(ExecutableTests.executable, "the passkeys executable is not built")
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("passkeys.sqlite").path
        let store = try await SQLitePasskeyStore.open(path: path)
        for index in 0..<3 {
            try await store.appendAuditEvent(AuditEvent(time: Self.now + Double(index), actor: "system", action: "x"))
        }
        await store.close()
        let server = try ChildProcess.launch(
            executable.path,
            ["serve", "--port", "0", "--database", "sqlite:\(path)", "--api-key", "pk_test_cli_audit_0123456789abcdef"]
        )
        // The server writes its key and then signs a checkpoint as it starts: as long as a loaded machine needs.
        var result = CommandResult(exitCode: -1)
        let deadline = ContinuousClock.now + .seconds(180)
        while result.exitCode != 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            guard FileManager.default.fileExists(atPath: path + ".audit-key") else { continue }
            result = await passkeys(["audit", "verify", "--database", path, "--key-file", path + ".audit-key"])
        }
        #expect(result.exitCode == 0, "\(result.standardError) \(server.standardError)")
        #expect(result.standardOutput.contains("The newest checkpoint signs event 3."))

        // An event appended meanwhile is signed when the server stops gracefully.
        let base = try #require(
            server.standardOutput.split(separator: "\n").first { $0.hasPrefix("passkeys serving ") }?
                .dropFirst("passkeys serving ".count).prefix { $0 != " " }
        )
        var request = URLRequest(url: try #require(URL(string: "\(base)/v1/registrations")))
        request.httpMethod = "POST"
        request.setValue("Bearer pk_test_cli_audit_0123456789abcdef", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"userId": "ada", "userName": "ada", "displayName": "Ada"}"#.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        await server.stop()
        let stopped = await passkeys(["audit", "verify", "--database", path, "--key-file", path + ".audit-key"])
        #expect(stopped.exitCode == 0, "\(stopped.standardError)")
        #expect(stopped.standardOutput.contains("The newest checkpoint signs event 4."), "\(stopped.standardOutput)")
        let attributes = try FileManager.default.attributesOfItem(atPath: path + ".audit-key")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
