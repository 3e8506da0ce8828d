import Foundation
import PasskeyStorage
import PasskeyTesting
import SQLiteNIO
import Testing

@testable import PasskeyStoreSQLite

@Suite("SQLite audit log tampering")
struct AuditTamperTests {
    /// Runs each statement on the file, as someone with the sqlite3 shell and the file would.
    func tamper(_ path: String, _ statements: [String]) async throws {
        try await withRawConnection(to: path) { connection in
            for statement in statements { _ = try await connection.query(statement) }
        }
    }

    @Test("an untouched log verifies, against the key that signed it")
    func untouched() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let key = try await withStore(at: path) { store in try await AuditTampering.prepare(store, at: Sample.now) }
            let report = try await withStore(at: path) { store in
                try await AuditChainVerification.verify(store, trustedKeys: [key], pageSize: 3)
            }
            #expect(report.chainedEvents == 8 && report.verifiedCheckpoints == 1 && report.startsAtGenesis)
        }
    }

    @Test("each change made to the file behind the store's back is found, at its event", arguments: AuditTampering.all)
    func tampered(_ tampering: AuditTampering) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let key = try await withStore(at: path) { store in try await AuditTampering.prepare(store, at: Sample.now) }
            try await tamper(path, tampering.statements)
            let problem = try await withStore(at: path) { store -> AuditChainProblem? in
                do {
                    _ = try await AuditChainVerification.verify(store, trustedKeys: [key], pageSize: 3)
                    return nil
                } catch let problem as AuditChainProblem {
                    return problem
                }
            }
            #expect(problem?.code == tampering.code, "\(String(describing: problem))")
            #expect(problem?.sequence == tampering.sequence, "\(String(describing: problem))")
        }
    }

    /// Makes the file at `path` as the release before the chain (schema version 13) left it.
    static func fileBeforeTheChain(at path: String) async throws {
        let previous = try await SQLitePasskeyStore.open(
            path: path,
            busyTimeout: .seconds(5),
            migrations: Migrations.all.filter { $0.version < 14 }
        )
        await previous.close()
    }

    @Test("a file from before the chain keeps its events; the chain starts after them and verifies")
    func upgrade() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            try await Self.fileBeforeTheChain(at: path)
            try await tamper(
                path,
                (0..<3).map { index in
                    "INSERT INTO audit_events (time, actor, action, details) VALUES (\(1_764_000_000 + index), 'system', 'old', '{}')"
                }
            )
            try await withStore(at: path) { store in
                #expect(store.migrationsApplied == [14, 15, 16, 17])
                #expect(try await store.auditChainHead() == nil, "events without hashes have no head to sign")
                let first = try await store.appendAuditEvent(
                    AuditEvent(time: Sample.now, actor: "system", action: "new")
                )
                #expect(first.sequence == 4 && first.previousHash == AuditChain.genesis)
                #expect(try await store.auditChainHead()?.sequence == 4)
                let key = try await AuditTampering.signHead(of: store, at: Sample.now + 1)
                let report = try await AuditChainVerification.verify(store, trustedKeys: [key])
                #expect(report.legacyEvents == 3 && report.chainedEvents == 1 && report.startsAtGenesis)
            }
        }
    }

    @Test("when purges before the chain left no event, the chain starts after the last number ever given")
    func upgradeAfterPurge() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            try await Self.fileBeforeTheChain(at: path)
            try await tamper(
                path,
                [
                    "INSERT INTO audit_events (time, actor, action, details) VALUES (1764000000, 'system', 'old', '{}')",
                    "INSERT INTO audit_events (time, actor, action, details) VALUES (1764000001, 'system', 'old', '{}')",
                    "DELETE FROM audit_events",
                ]
            )
            try await withStore(at: path) { store in
                let first = try await store.appendAuditEvent(
                    AuditEvent(time: Sample.now, actor: "system", action: "new")
                )
                #expect(first.sequence == 3 && first.previousHash == AuditChain.genesis)
            }
        }
    }
}
