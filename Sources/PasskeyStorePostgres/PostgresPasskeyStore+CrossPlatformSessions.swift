public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: CrossPlatformSessionStore {
    public func createCrossPlatformSession(
        _ session: CrossPlatformSessionRecord,
        flowPayload: [UInt8],
        at time: Date
    ) async throws(StoreError) -> Bool {
        // One statement: the flow is handed over only while it is `created`, and the session inserted only for a flow
        // that was; a racing handoff waits for the row's lock, then finds the flow handed over and inserts nothing. A
        // refused INSERT (a known id or token) fails the whole statement, so the flow stays as it was.
        let created = try await rows(
            """
            WITH handed AS (
                UPDATE flows
                SET status = \(FlowStatus.handedOff.rawValue), payload = \(flowPayload.bytea), updated_at = \(time)
                WHERE id = \(session.flowID) AND status = \(FlowStatus.created.rawValue) AND expires_at > \(time)
                RETURNING id
            )
            INSERT INTO cross_platform_sessions (\(unescaped: Columns.list(Columns.crossPlatformSession)))
            SELECT \(session.id), handed.id, \(session.handoffTokenHash.bytea), \(session.pollTokenHash.bytea),
                \(session.clientTokenHash?.bytea)::bytea, \(session.verificationCode), \(session.status.rawValue),
                \(session.codeFailures), \(session.createdAt), \(session.updatedAt), \(session.handoffExpiresAt),
                \(session.expiresAt)
            FROM handed
            RETURNING id
            """,
            doing: "create the cross-platform session"
        )
        if !created.isEmpty { return true }
        guard try await flow(id: session.flowID) != nil else {
            throw StoreError(.notFound, "No flow \(session.flowID) to hand over.")
        }
        return false
    }

    public func crossPlatformSession(id: String) async throws(StoreError) -> CrossPlatformSessionRecord? {
        try await rows(
            "SELECT \(unescaped: Columns.list(Columns.crossPlatformSession)) FROM cross_platform_sessions WHERE id = \(id)",
            doing: "read the cross-platform session"
        ).first.map { row throws(StoreError) in try CrossPlatformSessionRecord(row) }
    }

    public func crossPlatformSession(handoffTokenHash: [UInt8]) async throws(StoreError) -> CrossPlatformSessionRecord?
    {
        try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.crossPlatformSession)) FROM cross_platform_sessions
            WHERE handoff_token_hash = \(handoffTokenHash.bytea)
            """,
            doing: "read the cross-platform session"
        ).first.map { row throws(StoreError) in try CrossPlatformSessionRecord(row) }
    }

    public func crossPlatformSession(flowID: String) async throws(StoreError) -> CrossPlatformSessionRecord? {
        try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.crossPlatformSession)) FROM cross_platform_sessions
            WHERE flow_id = \(flowID)
            """,
            doing: "read the flow's cross-platform session"
        ).first.map { row throws(StoreError) in try CrossPlatformSessionRecord(row) }
    }

    public func crossPlatformSessions(ids: [String]) async throws(StoreError) -> [CrossPlatformSessionFlow] {
        let flowPrefix = "flow_"
        return try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.crossPlatformSession, of: "s")),
            \(unescaped: Columns.list(Columns.flow, of: "f", as: flowPrefix))
            FROM cross_platform_sessions AS s JOIN flows AS f ON f.id = s.flow_id WHERE s.id = ANY(\(ids))
            """,
            doing: "read the cross-platform sessions and their flows"
        ).map { row throws(StoreError) in
            CrossPlatformSessionFlow(
                session: try CrossPlatformSessionRecord(row),
                flow: try FlowRecord(row, prefix: flowPrefix)
            )
        }
    }

    public func claimCrossPlatformSession(
        handoffTokenHash: [UInt8],
        clientTokenHash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> CrossPlatformSessionRecord? {
        // One statement: a racing claim waits for the row's lock, then checks `pending` again against what the first
        // committed, and matches nothing. The flow takes the claim's client token in the same statement.
        try await rows(
            """
            WITH claimed AS (
                UPDATE cross_platform_sessions
                SET status = \(CrossPlatformSessionRecord.Status.claimed.rawValue),
                    client_token_hash = \(clientTokenHash.bytea), updated_at = \(time)
                WHERE handoff_token_hash = \(handoffTokenHash.bytea)
                    AND status = \(CrossPlatformSessionRecord.Status.pending.rawValue) AND handoff_expires_at > \(time)
                RETURNING \(unescaped: Columns.list(Columns.crossPlatformSession))
            ), flow AS (
                UPDATE flows SET client_token_hash = \(clientTokenHash.bytea), updated_at = \(time)
                FROM claimed WHERE flows.id = claimed.flow_id
            )
            SELECT \(unescaped: Columns.list(Columns.crossPlatformSession)) FROM claimed
            """,
            doing: "claim the handoff"
        ).first.map { row throws(StoreError) in try CrossPlatformSessionRecord(row) }
    }

    public func updateCrossPlatformSession(
        id: String,
        from: Set<CrossPlatformSessionRecord.Status>,
        to status: CrossPlatformSessionRecord.Status,
        at time: Date
    ) async throws(StoreError) -> CrossPlatformSessionRecord? {
        guard !from.isEmpty else { return nil }
        return try await rows(
            """
            UPDATE cross_platform_sessions SET status = \(status.rawValue), updated_at = \(time)
            WHERE id = \(id) AND status = ANY(\(from.map(\.rawValue).sorted())::text[]) AND expires_at > \(time)
            RETURNING \(unescaped: Columns.list(Columns.crossPlatformSession))
            """,
            doing: "update the cross-platform session"
        ).first.map { row throws(StoreError) in try CrossPlatformSessionRecord(row) }
    }

    public func countCrossPlatformCodeFailure(
        id: String,
        rejectAt: Int,
        at time: Date
    ) async throws(StoreError) -> CrossPlatformSessionRecord? {
        try await rows(
            """
            UPDATE cross_platform_sessions
            SET code_failures = code_failures + 1,
                status = CASE WHEN code_failures + 1 >= \(rejectAt)
                    THEN \(CrossPlatformSessionRecord.Status.rejected.rawValue) ELSE status END,
                updated_at = \(time)
            WHERE id = \(id) AND status = \(CrossPlatformSessionRecord.Status.claimed.rawValue) AND expires_at > \(time)
            RETURNING \(unescaped: Columns.list(Columns.crossPlatformSession))
            """,
            doing: "count a wrong verification code"
        ).first.map { row throws(StoreError) in try CrossPlatformSessionRecord(row) }
    }
}

extension CrossPlatformSessionRecord {
    init(_ row: PostgresRow) throws(StoreError) {
        let read = RowReader(row, record: "cross-platform session")
        let statusText: String = try read("status")
        guard let status = Status(rawValue: statusText) else {
            throw read.corrupt("status", "is '\(statusText)', not a status of a cross-platform session")
        }
        self.init(
            id: try read("id"),
            flowID: try read("flow_id"),
            handoffTokenHash: try read.bytes("handoff_token_hash"),
            pollTokenHash: try read.bytes("poll_token_hash"),
            clientTokenHash: try read.optionalBytes("client_token_hash"),
            verificationCode: try read("verification_code"),
            status: status,
            codeFailures: Int(try read("code_failures", as: Int32.self)),
            createdAt: try read("created_at"),
            updatedAt: try read("updated_at"),
            handoffExpiresAt: try read("handoff_expires_at"),
            expiresAt: try read("expires_at")
        )
    }
}
