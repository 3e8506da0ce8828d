import Foundation
import PasskeyStorage
import PasskeyStoreSQLite
import SQLiteNIO
import Testing

@Suite("SQLite store failures")
struct FailureTests {
    @Test("a missing directory gives .unavailable, saying what to check")
    func missingDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.path + "/missing/passkeys.sqlite"
            let error = await storeError { _ = try await SQLitePasskeyStore.open(path: path) }
            #expect(error?.code == .unavailable)
            #expect(error?.reason.contains(path) == true)
            #expect(error?.reason.contains("directory exists") == true)
            #expect(!FileManager.default.fileExists(atPath: directory.path + "/missing"))
        }
    }

    @Test("a path through a regular file, or naming a directory, gives .unavailable")
    func notAFilePath() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.file("plain")
            #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
            let through = await storeError { _ = try await SQLitePasskeyStore.open(path: file + "/passkeys.sqlite") }
            #expect(through?.code == .unavailable)
            let onDirectory = await storeError { _ = try await SQLitePasskeyStore.open(path: directory.path) }
            #expect(onDirectory?.code == .unavailable)
        }
    }

    @Test("a directory the process may not write gives .unavailable, saying so (as root too)")
    func readOnlyDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let readOnly = directory.path + "/read-only"
            try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: readOnly) }
            let path = try #require(
                FileManager.default.isWritableFile(atPath: readOnly) ? Self.unwritableForRoot : readOnly,
                "this process writes into a read-only directory, and there is no directory it cannot write"
            )
            let error = await storeError { _ = try await SQLitePasskeyStore.open(path: path + "/passkeys.sqlite") }
            #expect(error?.code == .unavailable)
            #expect(error?.reason.contains("may write") == true)
        }
    }

    /// A directory where not even root may create a file (root ignores permissions, as CI runs): sysfs on Linux
    /// refuses new files to everyone.
    static var unwritableForRoot: String? {
        #if os(Linux)
        let probe = "/sys/passkeys-probe"
        return FileManager.default.fileExists(atPath: "/sys/kernel")
            && !FileManager.default.createFile(atPath: probe, contents: nil)
            ? "/sys" : nil
        #else
        return nil
        #endif
    }

    @Test("a file that is not a database gives .corrupt")
    func notADatabase() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let garbage = Data((0..<8192).map { _ in UInt8.random(in: 0...255) })
            #expect(FileManager.default.createFile(atPath: path, contents: garbage))
            let error = await storeError { _ = try await SQLitePasskeyStore.open(path: path) }
            #expect(error?.code == .corrupt)
        }
    }

    @Test(":memory: and an empty path are refused")
    func notAFile() async {
        let memory = await storeError { _ = try await SQLitePasskeyStore.open(path: ":memory:") }
        #expect(memory?.code == .unavailable)
        let empty = await storeError { _ = try await SQLitePasskeyStore.open(path: "") }
        #expect(empty?.code == .unavailable)
    }

    @Test("operations after close give .unavailable; closing twice is harmless")
    func afterClose() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await SQLitePasskeyStore.open(path: directory.file())
            await store.close()
            await store.close()
            let error = await storeError { _ = try await store.user(id: "x") }
            #expect(error?.code == .unavailable)
        }
    }

    @Test("a credential or flow for an unknown user is refused with .notFound")
    func unknownUser() async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { store in
                let error = await storeError { try await store.createFlow(Sample.flow(userID: "nobody")) }
                #expect(error?.code == .notFound)
                let flow = Sample.flow(userID: nil)
                try await store.createFlow(flow)
                let insert = await storeError {
                    try await store.insertCredential(
                        Sample.credential(userID: "nobody"),
                        maximumActive: 5,
                        flowID: flow.id,
                        flowUpdate: FlowUpdate(),
                        at: Sample.now
                    )
                }
                #expect(insert?.code == .notFound)
                let noFlow = await storeError {
                    let user = try await store.createUserIfAbsent(Sample.user())
                    try await store.insertCredential(
                        Sample.credential(userID: user.id),
                        maximumActive: 5,
                        flowID: "no-flow",
                        flowUpdate: FlowUpdate(),
                        at: Sample.now
                    )
                }
                #expect(noFlow?.code == .notFound)
            }
        }
    }

    @Test("rows the schema allows but the records do not are reported as .corrupt, never a crash")
    func corruptRows() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let user = Sample.user()
            let credentials = (0..<6).map { Sample.credential(userID: user.id, name: "Key \($0)") }
            let flow = Sample.flow(userID: user.id)
            try await withStore(at: path) { store in
                _ = try await store.createUserIfAbsent(user)
                try await store.createFlow(flow)
                for credential in credentials {
                    try await store.insertCredential(
                        credential,
                        maximumActive: 10,
                        flowID: flow.id,
                        flowUpdate: FlowUpdate(),
                        at: Sample.now
                    )
                }
                try await store.appendAuditEvent(AuditEvent(time: Sample.now, actor: "system", action: "test"))
            }
            let damage = [
                "UPDATE credentials SET transports = 'not json' WHERE id = ?",
                "UPDATE credentials SET sign_count = 4294967296 WHERE id = ?",
                "UPDATE credentials SET sign_count = -1 WHERE id = ?",
                "UPDATE credentials SET backup_state = 2 WHERE id = ?",
                "UPDATE credentials SET algorithm = 9223372036854775807, created_at = 1e308 * 10 WHERE id = ?",
                "UPDATE credentials SET transports = '{\"a\":1}' WHERE id = ?",
            ]
            try await withRawConnection(to: path) { connection in
                for (statement, credential) in zip(damage, credentials) {
                    _ = try await connection.query(statement, [.blob(ByteBuffer(bytes: credential.id))])
                }
                _ = try await connection.query("UPDATE audit_events SET details = '[1, 2]'")
            }
            try await withStore(at: path) { store in
                for credential in credentials {
                    let error = await storeError { _ = try await store.credential(id: credential.id) }
                    #expect(error?.code == .corrupt, "\(credential.name)")
                }
                let listing = await storeError { _ = try await store.credentials(userID: user.id) }
                #expect(listing?.code == .corrupt)
                let audit = await storeError { _ = try await store.auditEvents(after: 0, limit: 5, userID: nil) }
                #expect(audit?.code == .corrupt)
                // The rest of the store still works.
                let found = try await store.user(id: user.id)
                #expect(found == user)
                let deleted = try await store.deleteUser(id: user.id)
                #expect(deleted)
            }
        }
    }
}
