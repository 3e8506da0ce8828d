import Foundation
import PasskeyStorage
import SQLiteNIO
import Testing

@testable import PasskeyStoreSQLite

@Suite("SQLite purge indexes")
struct PurgeIndexTests {
    /// SQLite's plan for a statement, one line per step.
    private func plan(_ sql: String, in path: String) async throws -> String {
        try await withRawConnection(to: path) { connection in
            try await connection.query("EXPLAIN QUERY PLAN " + sql, [.float(0), .integer(10)])
                .compactMap { $0.column("detail")?.string }.joined(separator: "\n")
        }
    }

    @Test("a file of schema version 4 gets the purge indexes alone; purging reads the old rows along them")
    func upgradeFromTheWorkflowRunsSchema() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let previous = try await SQLitePasskeyStore.open(
                path: path,
                busyTimeout: .seconds(5),
                migrations: Array(Migrations.all.prefix(4))
            )
            await previous.close()
            // Events of that release, written as it wrote them: without hashes.
            try await withRawConnection(to: path) { connection in
                for (time, action) in [(Sample.now - 7200, "old"), (Sample.now, "young")] {
                    _ = try await connection.query(
                        "INSERT INTO audit_events (time, actor, action, details) VALUES (?, 'system', ?, '{}')",
                        [.float(time.timeIntervalSince1970), .text(action)]
                    )
                }
            }

            try await withStore(at: path) { store in
                #expect(store.migrationsApplied == Migrations.all.map(\.version).filter { $0 > 4 })
                // Audit events go up to a checkpoint: one signed after the old event, before the retention.
                try await store.appendAuditCheckpoint(
                    AuditCheckpoint(
                        sequence: 1,
                        hash: AuditChain.genesis,
                        time: Sample.now - 3700,
                        publicKey: [],
                        signature: []
                    )
                )
                let report = try await store.purge(before: Sample.now, auditBefore: Sample.now - 3600, limit: 10)
                #expect(report == PurgeReport(auditEvents: 1))
                let left = try await store.auditEvents(after: 0, limit: 10, userID: nil)
                #expect(left.map(\.action) == ["young"])
                #expect(left.map(\.hash) == [nil], "an event from before the chain keeps no hash")
            }
            // Without the indexes, each purge would read every audit event and every run.
            // Audit events go along their sequence numbers, up to the newest checkpoint before the retention.
            let audit = try await plan(
                "SELECT sequence FROM audit_events WHERE sequence <= ?2 ORDER BY sequence LIMIT ?2",
                in: path
            )
            #expect(audit.contains("INTEGER PRIMARY KEY"), "\(audit)")
            let checkpoint = try await plan(
                "SELECT max(sequence) FROM audit_checkpoints WHERE time < ?1 LIMIT ?2",
                in: path
            )
            #expect(checkpoint.contains("SEARCH") && !checkpoint.contains("SCAN"), "\(checkpoint)")
            let runs = try await plan(
                "SELECT id FROM workflow_runs WHERE expires_at < ?1 ORDER BY expires_at LIMIT ?2",
                in: path
            )
            #expect(runs.contains("workflow_runs_by_expiry"), "\(runs)")
        }
    }
}
