public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: FlowStore {
    public func createFlow(_ flow: FlowRecord, audit: AuditAppend?) async throws(StoreError) {
        // One statement: the primary key refuses an id in use (.duplicate), the foreign key a missing user (.notFound).
        try await auditedWrite(audit) { db in
            try db.execute(
                "INSERT INTO flows (\(FlowRows.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                FlowRows.binds(flow)
            )
        }
    }

    public func flow(id: String) async throws(StoreError) -> FlowRecord? {
        try await connection.session { db in try Self.flow(db, id: id) }
    }

    public func updateFlow(
        id: String,
        expectedStatuses: Set<FlowStatus>,
        at time: Date,
        update: FlowUpdate
    ) async throws(StoreError)
        -> FlowRecord?
    {
        // One conditional UPDATE, which takes the write lock before it reads (as every writing statement does), and
        // sets the columns as ``FlowUpdate/applied(to:at:)`` does: unset members keep their column, `clearChallenge`
        // clears the challenge before a new one is set.
        guard !expectedStatuses.isEmpty else { return nil }
        let statuses = expectedStatuses.map(\.rawValue).sorted()
        let binds: [SQLValue] =
            [
                Bind.text(update.status?.rawValue), Bind.bytes(update.challengeHash), Bind.bool(update.clearChallenge),
                Bind.date(update.challengeExpiresAt), Bind.bytes(update.resultTokenHash),
                Bind.date(update.resultExpiresAt),
                Bind.bytes(update.payload), Bind.date(time), Bind.text(id),
            ] + statuses.map { Bind.text($0) }
        return try await connection.session { db in
            try db.rows(
                """
                UPDATE flows SET
                    status = coalesce(?1, status),
                    challenge_hash = CASE WHEN ?2 IS NOT NULL THEN ?2 WHEN ?3 THEN NULL ELSE challenge_hash END,
                    challenge_expires_at = CASE WHEN ?4 IS NOT NULL THEN ?4 WHEN ?3 THEN NULL ELSE challenge_expires_at END,
                    result_token_hash = coalesce(?5, result_token_hash),
                    result_expires_at = coalesce(?6, result_expires_at),
                    payload = coalesce(?7, payload),
                    updated_at = ?8
                WHERE id = ?9 AND expires_at > ?8 AND status IN (\(statuses.indices.map { "?\($0 + 10)" }.joined(separator: ", ")))
                RETURNING \(FlowRows.columns)
                """,
                binds
            ).first.map(FlowRows.decode)
        }
    }

    public func consumeChallenge(
        flowID: String,
        challengeHash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> FlowRecord? {
        try await connection.session { db in
            guard let flow = try Self.flow(db, id: flowID), flow.challengeHash == challengeHash,
                let expiry = flow.challengeExpiresAt, expiry > time
            else { return nil }
            try Self.write(
                db,
                FlowUpdate(status: .verifying, clearChallenge: true).applied(to: flow, at: time)
            )
            return flow
        }
    }

    public func redeemResult(
        flowID: String,
        resultTokenHash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> FlowRecord? {
        try await connection.session { db in
            guard let flow = try Self.flow(db, id: flowID), flow.status == .completed,
                flow.resultTokenHash == resultTokenHash, let expiry = flow.resultExpiresAt, expiry > time
            else { return nil }
            try Self.write(db, FlowUpdate(status: .redeemed).applied(to: flow, at: time))
            return flow
        }
    }

    public func purgedRegistration(id: String) async throws(StoreError) -> Date? {
        try await connection.session { db in
            try db.rows("SELECT purged_at FROM purged_registrations WHERE id = ?", [Bind.text(id)]).first.flatMap {
                row -> Date? in
                guard case .real(let seconds) = row.column("purged_at") else { return nil }
                return Date(timeIntervalSince1970: seconds)
            }
        }
    }

    static func flow(_ db: Database, id: String) throws -> FlowRecord? {
        try db.rows("SELECT \(FlowRows.columns) FROM flows WHERE id = ?", [Bind.text(id)]).first.map(
            FlowRows.decode
        )
    }

    /// Stores a flow's mutable columns (what ``FlowUpdate`` changes).
    static func write(_ db: Database, _ flow: FlowRecord) throws {
        try db.execute(
            """
            UPDATE flows SET status = ?, challenge_hash = ?, challenge_expires_at = ?, result_token_hash = ?,
            result_expires_at = ?, payload = ?, updated_at = ? WHERE id = ?
            """,
            [
                Bind.text(flow.status.rawValue), Bind.bytes(flow.challengeHash), Bind.date(flow.challengeExpiresAt),
                Bind.bytes(flow.resultTokenHash), Bind.date(flow.resultExpiresAt), Bind.bytes(flow.payload),
                Bind.date(flow.updatedAt), Bind.text(flow.id),
            ]
        )
    }
}
