public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: StorePurging {
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
            // The registrations' ids are kept as long again as each lived: a client may still hold one.
            let flows = try await connection.rows(
                """
                WITH gone AS (DELETE FROM flows WHERE id IN (
                    SELECT id FROM flows
                    WHERE expires_at < \(time) AND (result_expires_at IS NULL OR result_expires_at < \(time))
                        AND NOT EXISTS (
                            SELECT 1 FROM credentials WHERE credentials.flow_id = flows.id AND credentials.status = 'reserved'
                        )
                    ORDER BY expires_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
                ) RETURNING user_id, id, kind, created_at, expires_at),
                kept AS (
                    INSERT INTO purged_registrations (id, purged_at, forget_at)
                    SELECT id, \(time), \(time) + GREATEST(expires_at - created_at, interval '0') FROM gone WHERE kind = 'registration'
                    ON CONFLICT (id) DO UPDATE SET purged_at = EXCLUDED.purged_at, forget_at = EXCLUDED.forget_at
                )
                SELECT user_id FROM gone
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
        for kind in PurgeReport.timeOrdered {
            guard let cutoff = kind.keptWithAudit ? auditBefore : time else { continue }
            kind.record(
                &report,
                try await deleteOldest(kind.table, key: kind.key, by: kind.column, before: cutoff, limit: limit)
            )
        }
        if let auditBefore { report.auditEvents = try await purgeAuditChain(before: auditBefore, limit: limit) }
        return report
    }

    /// Deletes the oldest audit events up to the event of the newest checkpoint signed before `time`, at most
    /// `limit` (skipping those another server is purging), then the checkpoints older than the newest one before the
    /// oldest event left; returns how many events it deleted (see ``StorePurging``, step 6). A purge that read an
    /// older state keeps more checkpoints, never fewer.
    private func purgeAuditChain(before time: Date, limit: Int64) async throws(StoreError) -> Int {
        let deleted = try await rows(
            """
            DELETE FROM audit_events WHERE sequence IN (
                SELECT sequence FROM audit_events
                WHERE sequence <= (SELECT max(sequence) FROM audit_checkpoints WHERE time < \(time))
                ORDER BY sequence LIMIT \(limit) FOR UPDATE SKIP LOCKED
            ) RETURNING sequence
            """,
            doing: "purge audit_events"
        ).count
        _ = try await rows(
            """
            DELETE FROM audit_checkpoints WHERE sequence < (
                SELECT max(sequence) FROM audit_checkpoints WHERE sequence < coalesce(
                    (SELECT min(sequence) FROM audit_events),
                    (SELECT max(sequence) + 1 FROM audit_checkpoints)
                )
            )
            """,
            doing: "purge audit_checkpoints"
        )
        return deleted
    }

    /// Deletes at most `limit` rows of `table` whose `column` is before `time`, oldest first, skipping rows another
    /// server is purging; returns how many. The names are constants of this file, never input.
    private func deleteOldest(
        _ table: StaticString,
        key: StaticString,
        by column: StaticString,
        before time: Date,
        limit: Int64
    ) async throws(StoreError) -> Int {
        try await rows(
            """
            DELETE FROM \(unescaped: "\(table)") WHERE \(unescaped: "\(key)") IN (
                SELECT \(unescaped: "\(key)") FROM \(unescaped: "\(table)") WHERE \(unescaped: "\(column)") < \(time)
                ORDER BY \(unescaped: "\(column)") LIMIT \(limit) FOR UPDATE SKIP LOCKED
            ) RETURNING \(unescaped: "\(key)")
            """,
            doing: "purge \(table)"
        ).count
    }
}
