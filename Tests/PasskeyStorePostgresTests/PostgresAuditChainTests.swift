import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyTesting
import PostgresTestSupport
import Testing

@Suite("PostgreSQL audit chain", .enabled(if: TestDatabase.isConfigured, TestDatabase.skipped))
struct PostgresAuditChainTests {
    static let now = TestTime.fixed

    func problem(_ store: PostgresPasskeyStore, trustedKeys: [[UInt8]]) async throws -> AuditChainProblem? {
        do {
            _ = try await AuditChainVerification.verify(store, trustedKeys: trustedKeys, pageSize: 3)
            return nil
        } catch let problem as AuditChainProblem {
            return problem
        }
    }

    @Test(
        "each change made to the tables behind the store's back is found, at its event",
        arguments: AuditTampering.all
    )
    func tampered(_ tampering: AuditTampering) async throws {
        try await TestDatabase.withSchema("tamper") { schema in
            let store = try await schema.connect()
            let key = try await AuditTampering.prepare(store, at: Self.now)
            #expect(try await problem(store, trustedKeys: [key]) == nil)
            for statement in tampering.statements { try await schema.execute(statement) }
            let found = try await problem(store, trustedKeys: [key])
            await store.shutdown()
            #expect(found?.code == tampering.code, "\(String(describing: found))")
            #expect(found?.sequence == tampering.sequence, "\(String(describing: found))")
        }
    }

    @Test("two stores (two processes) appending and signing at once keep one chain, without gaps, that verifies")
    func concurrentWriters() async throws {
        try await TestDatabase.withSchema("chain") { schema in
            let stores = [try await schema.connect(), try await schema.connect()]
            let keys = try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
                for index in 0..<400 {
                    let store = stores[index % 2]
                    group.addTask {
                        try await store.appendAuditEvent(
                            AuditEvent(
                                time: Self.now + Double(index) / 1000,
                                actor: "api-key:load",
                                action: "credential.renamed",
                                userID: "user-\(index % 7)",
                                details: ["index": "\(index)"]
                            )
                        )
                        // Now and then a store signs the head meanwhile, as each server's checkpoint task does.
                        guard index % 50 == 49 else { return nil }
                        return try await AuditTampering.signHead(of: store, at: Self.now + Double(index))
                    }
                }
                return try await group.reduce(into: [[UInt8]]()) { keys, key in if let key { keys.append(key) } }
            }
            let last = try await AuditTampering.signHead(of: stores[1], at: Self.now + 500)
            let report = try await AuditChainVerification.verify(stores[0], trustedKeys: keys + [last], pageSize: 64)
            for store in stores { await store.shutdown() }
            #expect(report.chainedEvents == 400 && report.startsAtGenesis)
            #expect(report.head?.sequence == 400, "sequence numbers have no gaps")
            #expect(report.verifiedCheckpoints >= 1 && report.unsignedEvents == 0)
        }
    }
}
