import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyTesting
import PostgresTestSupport
import ProcessTestSupport
import Testing

/// The dump and restore docs/server.md gives for PostgreSQL ("Backup and restore"), run on a schema with users and
/// credentials: what the store reads back after the restore is what it wrote before the dump.
@Suite("PostgreSQL backup with pg_dump and pg_restore", .enabled(if: TestDatabase.isConfigured, TestDatabase.skipped))
struct PostgresBackupTests {
    /// Runs one of PostgreSQL's client programs through the tests' one spawner (never Foundation's `Process`, whose
    /// start can crash beside others on Linux, nor a blocking wait on the concurrency pool).
    static func run(_ program: String, _ arguments: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run("/usr/bin/env", [program] + arguments)
    }

    @Test("pg_dump, the schema dropped, pg_restore: the store reads the same users and credentials")
    func dumpAndRestore() async throws {
        let configured = try #require(TestDatabase.url)
        var server = try #require(URLComponents(string: configured))
        server.queryItems = nil
        let url = try #require(server.string)
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("passkeys-\(UUID()).dump").path
        defer { try? FileManager.default.removeItem(atPath: dump) }
        try await TestDatabase.withSchema("backup") { schema in
            let store = try await schema.connect()
            var written: [String: Set<[UInt8]>] = [:]
            do {
                for count in 1...3 {
                    let user = try await store.createUserIfAbsent(.fixture())
                    let flow = FlowRecord.fixture(userID: user.id)
                    try await store.createFlow(flow)
                    for index in 0..<count {
                        let credential = PostgresMultiProcessTests.credential(of: user.id, name: "Key \(index)")
                        try await store.insertCredential(
                            credential,
                            maximumActive: 10,
                            flowID: flow.id,
                            flowUpdate: FlowUpdate(),
                            at: TestTime.fixed
                        )
                        written[user.id, default: []].insert(credential.id)
                    }
                }
            } catch {
                await store.shutdown()
                throw error
            }
            await store.shutdown()

            let dumped = try await Self.run(
                "pg_dump",
                ["--format=custom", "--schema", schema.name, "--file", dump, url]
            )
            #expect(dumped.status == 0, "\(dumped.standardError)")
            try await schema.drop()
            let restored = try await Self.run("pg_restore", ["--no-owner", "--dbname", url, dump])
            #expect(restored.status == 0, "\(restored.standardError)")

            let reopened = try await schema.connect()
            do {
                for (userID, ids) in written {
                    let read = try await reopened.credentials(userID: userID)
                    #expect(Set(read.map(\.id)) == ids)
                    #expect(read.allSatisfy { $0.status == .active && $0.userID == userID })
                }
            } catch {
                await reopened.shutdown()
                throw error
            }
            await reopened.shutdown()
        }
    }
}
