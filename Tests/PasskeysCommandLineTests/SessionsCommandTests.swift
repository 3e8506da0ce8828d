import Foundation
import PasskeyStorage
import PasskeyStoreSQLite
import PasskeyTesting
import ProcessTestSupport
import Testing

@testable import PasskeysCommandLine

/// `passkeys sessions rotate-key` on a real SQLite file.
@Suite("passkeys sessions rotate-key")
struct SessionsCommandTests {
    @Test("a rotation makes a new current key and keeps the old one published")
    func rotates() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("passkeys.sqlite").path
        let store = try await SQLitePasskeyStore.open(path: path)
        let first = try await store.currentSigningKey(
            creatingIfNone: SessionSigningKey(
                id: "first",
                privateKey: Array(repeating: 1, count: 32),
                publicKey: [4] + Array(repeating: 2, count: 64),
                createdAt: Date()
            )
        )
        await store.close()

        let result = await passkeys(["sessions", "rotate-key", "--database", path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("are now signed with key "))
        #expect(result.standardOutput.contains("Key \(first.id) is retired; it stays published until "))

        let reopened = try await SQLitePasskeyStore.open(path: path)
        let keys = try await reopened.publishedSigningKeys(at: Date())
        await reopened.close()
        #expect(keys.count == 2)
        #expect(keys.first?.isCurrent == true && keys.first?.id != first.id)
        #expect(keys.last?.id == first.id && keys.last?.isCurrent == false)
    }

    @Test("a missing database and a bad URL are reported, and nothing is created")
    func refusals() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let missing = folder.url.path + "/none.sqlite"
        let result = await passkeys(["sessions", "rotate-key", "--database", missing])
        #expect(result.exitCode == 1)
        #expect(result.standardError.hasPrefix("error: FILE_UNREADABLE: "))
        #expect(!FileManager.default.fileExists(atPath: missing))
        let bad = await passkeys(["sessions", "rotate-key", "--database", "mysql://x"])
        #expect(bad.exitCode == 2)
    }
}
