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
            let old = try await previous.appendAuditEvent(
                AuditEvent(time: Sample.now - 7200, actor: "system", action: "old")
            )
            let young = try await previous.appendAuditEvent(
                AuditEvent(time: Sample.now, actor: "system", action: "young")
            )
            await previous.close()

            try await withStore(at: path) { store in
                #expect(store.migrationsApplied == Migrations.all.dropFirst(4).map(\.version))
                let report = try await store.purge(before: Sample.now, auditBefore: Sample.now - 3600, limit: 10)
                #expect(report == PurgeReport(auditEvents: 1))
                let left = try await store.auditEvents(after: old.sequence - 1, limit: 10, userID: nil)
                #expect(left == [young])
            }
            // Without the indexes, each purge would read every audit event and every run.
            let audit = try await plan(
                "SELECT sequence FROM audit_events WHERE time < ?1 ORDER BY time LIMIT ?2",
                in: path
            )
            #expect(audit.contains("audit_events_by_time"), "\(audit)")
            let runs = try await plan(
                "SELECT id FROM workflow_runs WHERE expires_at < ?1 ORDER BY expires_at LIMIT ?2",
                in: path
            )
            #expect(runs.contains("workflow_runs_by_expiry"), "\(runs)")
        }
    }
}
