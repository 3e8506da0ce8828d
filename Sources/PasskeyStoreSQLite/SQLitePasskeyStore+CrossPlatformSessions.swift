public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: CrossPlatformSessionStore {
    public func createCrossPlatformSession(
        _ record: CrossPlatformSessionRecord,
        flowPayload: [UInt8],
        at time: Date
    ) async throws(StoreError) -> Bool {
        try await connection.session { db in
            guard let flow = try Self.flow(db, id: record.flowID) else {
                throw StoreError(.notFound, "No flow \(record.flowID) to hand over.")
            }
            guard flow.status == .created, flow.expiresAt > time else { return false }
            // The primary key refuses a known id, the unique handoff_token_hash a known token: the transaction then
            // rolls back, and the flow stays as it was.
            try db.execute(
                "INSERT INTO cross_platform_sessions (\(CrossPlatformSessionRows.columns)) VALUES (\(CrossPlatformSessionRows.placeholders))",
                CrossPlatformSessionRows.binds(record)
            )
            try db.execute(
                "UPDATE flows SET status = ?, payload = ?, updated_at = ? WHERE id = ?",
                [
                    Bind.text(FlowStatus.handedOff.rawValue), Bind.bytes(flowPayload), Bind.date(time),
                    Bind.text(flow.id),
                ]
            )
            return true
        }
    }

    public func crossPlatformSession(id: String) async throws(StoreError) -> CrossPlatformSessionRecord? {
        try await crossPlatformSession(where: "id = ?", Bind.text(id))
    }

    public func crossPlatformSession(handoffTokenHash: [UInt8]) async throws(StoreError) -> CrossPlatformSessionRecord?
    {
        try await crossPlatformSession(where: "handoff_token_hash = ?", Bind.bytes(handoffTokenHash))
    }

    public func crossPlatformSession(flowID: String) async throws(StoreError) -> CrossPlatformSessionRecord? {
        try await crossPlatformSession(where: "flow_id = ?", Bind.text(flowID))
    }

    /// One visit to the connection's thread for all of them; each a lookup by primary key.
    public func crossPlatformSessions(ids: [String]) async throws(StoreError) -> [CrossPlatformSessionFlow] {
        try await connection.session { db in
            try ids.compactMap { id in
                guard let session = try Self.crossPlatformSession(db, where: "id = ?", Bind.text(id)),
                    let flow = try Self.flow(db, id: session.flowID)
                else { return nil }
                return CrossPlatformSessionFlow(session: session, flow: flow)
            }
        }
    }

    public func claimCrossPlatformSession(
        handoffTokenHash: [UInt8],
        clientTokenHash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> CrossPlatformSessionRecord? {
        // The conditional UPDATE takes the write lock before it reads: of racing claims the first to write wins and
        // the others match no row. The flow takes the claim's client token in the same transaction.
        try await connection.session { db in
            guard
                let claimed = try db.rows(
                    """
                    UPDATE cross_platform_sessions SET status = 'claimed', client_token_hash = ?1, updated_at = ?2
                    WHERE handoff_token_hash = ?3 AND status = 'pending' AND handoff_expires_at > ?2
                    RETURNING \(CrossPlatformSessionRows.columns)
                    """,
                    [Bind.bytes(clientTokenHash), Bind.date(time), Bind.bytes(handoffTokenHash)]
                ).first.map(CrossPlatformSessionRows.decode)
            else { return nil }
            try db.execute(
                "UPDATE flows SET client_token_hash = ?, updated_at = ? WHERE id = ?",
                [Bind.bytes(clientTokenHash), Bind.date(time), Bind.text(claimed.flowID)]
            )
            return claimed
        }
    }

    public func updateCrossPlatformSession(
        id: String,
        from: Set<CrossPlatformSessionRecord.Status>,
        to status: CrossPlatformSessionRecord.Status,
        at time: Date
    ) async throws(StoreError) -> CrossPlatformSessionRecord? {
        guard !from.isEmpty else { return nil }
        let expected = from.map(\.rawValue).sorted()
        return try await connection.session { db in
            try db.rows(
                """
                UPDATE cross_platform_sessions SET status = ?1, updated_at = ?2
                WHERE id = ?3 AND expires_at > ?2
                    AND status IN (\(expected.indices.map { "?\($0 + 4)" }.joined(separator: ", ")))
                RETURNING \(CrossPlatformSessionRows.columns)
                """,
                [Bind.text(status.rawValue), Bind.date(time), Bind.text(id)] + expected.map { Bind.text($0) }
            ).first.map(CrossPlatformSessionRows.decode)
        }
    }

    public func countCrossPlatformCodeFailure(
        id: String,
        rejectAt: Int,
        at time: Date
    ) async throws(StoreError) -> CrossPlatformSessionRecord? {
        try await connection.session { db in
            try db.rows(
                """
                UPDATE cross_platform_sessions SET
                    code_failures = code_failures + 1,
                    status = CASE WHEN code_failures + 1 >= ?1 THEN 'rejected' ELSE status END,
                    updated_at = ?2
                WHERE id = ?3 AND status = 'claimed' AND expires_at > ?2
                RETURNING \(CrossPlatformSessionRows.columns)
                """,
                [Bind.integer(rejectAt), Bind.date(time), Bind.text(id)]
            ).first.map(CrossPlatformSessionRows.decode)
        }
    }

    private func crossPlatformSession(
        where condition: String,
        _ bind: SQLValue
    ) async throws(StoreError) -> CrossPlatformSessionRecord? {
        try await connection.session { db in try Self.crossPlatformSession(db, where: condition, bind) }
    }

    private static func crossPlatformSession(
        _ db: Database,
        where condition: String,
        _ bind: SQLValue
    ) throws -> CrossPlatformSessionRecord? {
        try db.rows(
            "SELECT \(CrossPlatformSessionRows.columns) FROM cross_platform_sessions WHERE \(condition)",
            [bind]
        ).first.map(CrossPlatformSessionRows.decode)
    }
}

enum CrossPlatformSessionRows {
    static let columns = """
        id, flow_id, handoff_token_hash, poll_token_hash, client_token_hash, verification_code, status, code_failures, \
        created_at, updated_at, handoff_expires_at, expires_at
        """
    static let placeholders = Array(repeating: "?", count: 12).joined(separator: ", ")

    static func decode(_ row: Row) throws(StoreError) -> CrossPlatformSessionRecord {
        let reader = RowReader(row: row, table: "cross_platform_sessions")
        let status = try reader.text("status")
        guard let known = CrossPlatformSessionRecord.Status(rawValue: status) else {
            throw StoreError(
                .corrupt,
                "A stored cross_platform_sessions row is invalid: its status '\(status)' is unknown."
            )
        }
        return CrossPlatformSessionRecord(
            id: try reader.text("id"),
            flowID: try reader.text("flow_id"),
            handoffTokenHash: try reader.bytes("handoff_token_hash"),
            pollTokenHash: try reader.bytes("poll_token_hash"),
            clientTokenHash: try reader.optionalBytes("client_token_hash"),
            verificationCode: try reader.text("verification_code"),
            status: known,
            codeFailures: try reader.int("code_failures"),
            createdAt: try reader.date("created_at"),
            updatedAt: try reader.date("updated_at"),
            handoffExpiresAt: try reader.date("handoff_expires_at"),
            expiresAt: try reader.date("expires_at")
        )
    }

    static func binds(_ record: CrossPlatformSessionRecord) -> [SQLValue] {
        [
            Bind.text(record.id), Bind.text(record.flowID), Bind.bytes(record.handoffTokenHash),
            Bind.bytes(record.pollTokenHash), Bind.bytes(record.clientTokenHash), Bind.text(record.verificationCode),
            Bind.text(record.status.rawValue), Bind.integer(record.codeFailures), Bind.date(record.createdAt),
            Bind.date(record.updatedAt), Bind.date(record.handoffExpiresAt), Bind.date(record.expiresAt),
        ]
    }
}
