public import Foundation
public import PasskeyStorage
import SQLiteNIO

extension SQLitePasskeyStore {
    public func purge(before time: Date, auditBefore: Date?, limit: Int) async throws(StoreError) -> PurgeReport {
        guard limit > 0 else { return PurgeReport() }
        var report = PurgeReport()
        // Each kind is one bounded statement (flows and their users one transaction) along an index, so no
        // operation waits for the store's connection longer than it takes to delete `limit` rows.
        report.reservations = try await deleted(
            """
            DELETE FROM credentials WHERE id IN (
                SELECT id FROM credentials
                WHERE status = 'reserved' AND (reserved_until IS NULL OR reserved_until < ?1) LIMIT ?2
            ) RETURNING id
            """,
            before: time,
            limit: limit
        )
        (report.flows, report.users) = try await lease.withTransaction { session in
            let flows = try await session.rows(
                """
                DELETE FROM flows WHERE id IN (
                    SELECT id FROM flows
                    WHERE expires_at < ?1 AND (result_expires_at IS NULL OR result_expires_at < ?1)
                        AND NOT EXISTS (
                            SELECT 1 FROM credentials WHERE credentials.flow_id = flows.id AND credentials.status = 'reserved'
                        )
                    ORDER BY expires_at LIMIT ?2
                ) RETURNING user_id
                """,
                [Bind.date(time), Bind.integer(limit)]
            )
            let users = Set(flows.compactMap { $0.column("user_id")?.string })
            guard !users.isEmpty else { return (flows.count, 0) }
            // Their identity-verification runs go with them (ON DELETE CASCADE).
            let abandoned = try await session.rows(
                """
                DELETE FROM users WHERE id IN (SELECT value FROM json_each(?1)) AND created_at < ?2
                    AND NOT EXISTS (SELECT 1 FROM credentials WHERE credentials.user_id = users.id)
                    AND NOT EXISTS (SELECT 1 FROM flows WHERE flows.user_id = users.id)
                RETURNING id
                """,
                [try Bind.json(users.sorted()), Bind.date(time)]
            )
            return (flows.count, abandoned.count)
        }
        report.webSessions = try await deleted(
            """
            DELETE FROM web_sessions WHERE id IN (
                SELECT id FROM web_sessions WHERE expires_at < ?1 ORDER BY expires_at LIMIT ?2
            ) RETURNING id
            """,
            before: time,
            limit: limit
        )
        report.limitWindows = try await deleted(
            """
            DELETE FROM limit_windows WHERE key_hash IN (
                SELECT key_hash FROM limit_windows WHERE window_end < ?1 ORDER BY window_end LIMIT ?2
            ) RETURNING key_hash
            """,
            before: time,
            limit: limit
        )
        guard let auditBefore else { return report }
        report.workflowRuns = try await deleted(
            """
            DELETE FROM workflow_runs WHERE id IN (
                SELECT id FROM workflow_runs WHERE expires_at < ?1 ORDER BY expires_at LIMIT ?2
            ) RETURNING id
            """,
            before: auditBefore,
            limit: limit
        )
        report.auditEvents = try await deleted(
            """
            DELETE FROM audit_events WHERE sequence IN (
                SELECT sequence FROM audit_events WHERE time < ?1 ORDER BY time LIMIT ?2
            ) RETURNING sequence
            """,
            before: auditBefore,
            limit: limit
        )
        return report
    }

    /// Runs one deleting statement that takes the time as `?1` and the limit as `?2`; returns how many rows it deleted.
    private func deleted(_ sql: String, before time: Date, limit: Int) async throws(StoreError) -> Int {
        try await lease.withSession { session in
            try await session.rows(sql, [Bind.date(time), Bind.integer(limit)]).count
        }
    }
}
