public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: StorePurging {
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
        (report.flows, report.users) = try await connection.session { db in
            let flows = try db.rows(
                """
                DELETE FROM flows WHERE id IN (
                    SELECT id FROM flows
                    WHERE expires_at < ?1 AND (result_expires_at IS NULL OR result_expires_at < ?1)
                        AND NOT EXISTS (
                            SELECT 1 FROM credentials WHERE credentials.flow_id = flows.id AND credentials.status = 'reserved'
                        )
                    ORDER BY expires_at LIMIT ?2
                ) RETURNING user_id, id, kind, created_at, expires_at
                """,
                [Bind.date(time), Bind.integer(limit)]
            )
            // The registrations' ids are kept as long again as each lived: a client may still hold one.
            let registrations = flows.compactMap { row -> PurgedRegistration? in
                guard case .text("registration") = row.column("kind"), case .text(let id) = row.column("id"),
                    case .real(let created) = row.column("created_at"),
                    case .real(let expires) = row.column("expires_at")
                else { return nil }
                return PurgedRegistration(id: id, lifetime: max(0, expires - created))
            }
            if !registrations.isEmpty {
                try db.execute(
                    """
                    INSERT OR REPLACE INTO purged_registrations (id, purged_at, forget_at)
                    SELECT json_extract(value, '$.id'), ?2, ?2 + json_extract(value, '$.lifetime') FROM json_each(?1)
                    """,
                    [try Bind.json(registrations), Bind.date(time)]
                )
            }
            let users = Set(
                flows.compactMap { row -> String? in
                    guard case .text(let userID) = row.column("user_id") else { return nil }
                    return userID
                }
            )
            guard !users.isEmpty else { return (flows.count, 0) }
            // Their identity-verification runs go with them (ON DELETE CASCADE).
            let abandoned = try db.rows(
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
    /// `limit`, then the checkpoints older than the newest one before the oldest event left; returns how many events
    /// it deleted (see ``StorePurging``, step 6).
    private func purgeAuditChain(before time: Date, limit: Int) async throws(StoreError) -> Int {
        try await connection.session { db in
            let deleted = try db.rows(
                """
                DELETE FROM audit_events WHERE sequence IN (
                    SELECT sequence FROM audit_events
                    WHERE sequence <= (SELECT max(sequence) FROM audit_checkpoints WHERE time < ?1)
                    ORDER BY sequence LIMIT ?2
                ) RETURNING sequence
                """,
                [Bind.date(time), Bind.integer(limit)]
            ).count
            try db.execute(
                """
                DELETE FROM audit_checkpoints WHERE sequence < (
                    SELECT max(sequence) FROM audit_checkpoints WHERE sequence < coalesce(
                        (SELECT min(sequence) FROM audit_events),
                        (SELECT max(sequence) + 1 FROM audit_checkpoints)
                    )
                )
                """
            )
            return deleted
        }
    }

    /// Deletes at most `limit` rows of `table` whose `column` is before `time`, oldest first; returns how many. The
    /// names are constants of this file, never input.
    private func deleteOldest(
        _ table: StaticString,
        key: StaticString,
        by column: StaticString,
        before time: Date,
        limit: Int
    ) async throws(StoreError) -> Int {
        try await deleted(
            """
            DELETE FROM \(table) WHERE \(key) IN (
                SELECT \(key) FROM \(table) WHERE \(column) < ?1 ORDER BY \(column) LIMIT ?2
            ) RETURNING \(key)
            """,
            before: time,
            limit: limit
        )
    }

    /// Runs one deleting statement that takes the time as `?1` and the limit as `?2`; returns how many rows it deleted.
    private func deleted(_ sql: String, before time: Date, limit: Int) async throws(StoreError) -> Int {
        try await connection.session { db in
            try db.rows(sql, [Bind.date(time), Bind.integer(limit)]).count
        }
    }
}

/// A purged registration flow's id and how long it lived, in seconds.
private struct PurgedRegistration: Encodable {
    let id: String
    let lifetime: Double
}
