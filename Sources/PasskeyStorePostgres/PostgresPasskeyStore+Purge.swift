public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore {
    public func purge(before time: Date, auditBefore: Date?, limit: Int) async throws(StoreError) -> PurgeReport {
        guard limit > 0 else { return PurgeReport() }
        let limit = Int64(limit)
        var report = PurgeReport()
        // Each kind is one bounded statement (flows and their users one transaction) along an index. Rows another
        // process is deleting, or a request is changing, are skipped rather than waited for: the next round gets them.
        report.reservations = try await rows(
            """
            DELETE FROM credentials WHERE id IN (
                SELECT id FROM credentials
                WHERE status = 'reserved' AND (reserved_until IS NULL OR reserved_until < \(time))
                LIMIT \(limit) FOR UPDATE SKIP LOCKED
            ) RETURNING id
            """,
            doing: "purge ended reservations"
        ).count
        (report.flows, report.users) = try await transaction(doing: "purge flows that are over") { connection in
            let flows = try await connection.rows(
                """
                DELETE FROM flows WHERE id IN (
                    SELECT id FROM flows
                    WHERE expires_at < \(time) AND (result_expires_at IS NULL OR result_expires_at < \(time))
                        AND NOT EXISTS (
                            SELECT 1 FROM credentials WHERE credentials.flow_id = flows.id AND credentials.status = 'reserved'
                        )
                    ORDER BY expires_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
                ) RETURNING user_id
                """
            )
            var users: Set<String> = []
            for row in flows {
                if let user = try row.decode(String?.self) { users.insert(user) }
            }
            guard !users.isEmpty else { return (flows.count, 0) }
            // Their identity-verification runs go with them (ON DELETE CASCADE).
            let abandoned = try await connection.rows(
                """
                DELETE FROM users WHERE id = ANY(\(users.sorted())) AND created_at < \(time)
                    AND NOT EXISTS (SELECT 1 FROM credentials WHERE credentials.user_id = users.id)
                    AND NOT EXISTS (SELECT 1 FROM flows WHERE flows.user_id = users.id)
                RETURNING id
                """
            )
            return (flows.count, abandoned.count)
        }
        report.webSessions = try await rows(
            """
            DELETE FROM web_sessions WHERE id IN (
                SELECT id FROM web_sessions WHERE expires_at < \(time)
                ORDER BY expires_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
            ) RETURNING id
            """,
            doing: "purge expired web sessions"
        ).count
        report.limitWindows = try await rows(
            """
            DELETE FROM limit_windows WHERE key_hash IN (
                SELECT key_hash FROM limit_windows WHERE window_end < \(time)
                ORDER BY window_end LIMIT \(limit) FOR UPDATE SKIP LOCKED
            ) RETURNING key_hash
            """,
            doing: "purge ended limit windows"
        ).count
        guard let auditBefore else { return report }
        report.workflowRuns = try await rows(
            """
            DELETE FROM workflow_runs WHERE id IN (
                SELECT id FROM workflow_runs WHERE expires_at < \(auditBefore)
                ORDER BY expires_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
            ) RETURNING id
            """,
            doing: "purge old identity-verification runs"
        ).count
        report.auditEvents = try await rows(
            """
            DELETE FROM audit_events WHERE sequence IN (
                SELECT sequence FROM audit_events WHERE time < \(auditBefore)
                ORDER BY time LIMIT \(limit) FOR UPDATE SKIP LOCKED
            ) RETURNING sequence
            """,
            doing: "purge old audit events"
        ).count
        return report
    }
}
