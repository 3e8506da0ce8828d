public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore {
    public func createFlow(_ flow: FlowRecord) async throws(StoreError) {
        _ = try await rows(Self.insert(flow), doing: "create the flow")
    }

    /// The `INSERT` of a new flow.
    static func insert(_ flow: FlowRecord) -> PostgresQuery {
        """
        INSERT INTO flows (\(unescaped: Columns.list(Columns.flow)))
        VALUES (
            \(flow.id), \(flow.kind.rawValue), \(flow.status.rawValue), \(flow.userID), \(flow.clientTokenHash.bytea),
            \(flow.challengeHash?.bytea)::bytea, \(flow.challengeExpiresAt)::timestamptz,
            \(flow.resultTokenHash?.bytea)::bytea, \(flow.resultExpiresAt)::timestamptz,
            \(flow.expiresAt), \(flow.createdAt), \(flow.updatedAt), \(flow.payload.bytea)
        )
        """
    }

    public func flow(id: String) async throws(StoreError) -> FlowRecord? {
        try await rows(
            "SELECT \(unescaped: Columns.list(Columns.flow)) FROM flows WHERE id = \(id)",
            doing: "read the flow"
        )
        .first.map { row throws(StoreError) in try FlowRecord(row) }
    }

    public func updateFlow(
        id: String,
        expectedStatuses: Set<FlowStatus>,
        at time: Date,
        update: FlowUpdate
    ) async throws(StoreError) -> FlowRecord? {
        try await rows(
            Self.flowUpdate(id: id, update: update, at: time, expectedStatuses: expectedStatuses),
            doing: "update the flow"
        )
        .first.map { row throws(StoreError) in try FlowRecord(row) }
    }

    public func consumeChallenge(
        flowID: String,
        challengeHash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> FlowRecord? {
        // One statement. The CTE locks the matching row and keeps it as it was, which is what the contract returns;
        // the UPDATE's own conditions make it a compare-and-set: a racing caller that waited for the lock finds the
        // challenge gone and matches nothing.
        try await rows(
            """
            WITH previous AS (
                SELECT \(unescaped: Columns.list(Columns.flow)) FROM flows
                WHERE id = \(flowID) AND challenge_hash = \(challengeHash.bytea) AND challenge_expires_at > \(time)
                FOR UPDATE
            )
            UPDATE flows AS f
            SET status = \(FlowStatus.verifying.rawValue), challenge_hash = NULL, challenge_expires_at = NULL, updated_at = \(time)
            FROM previous
            WHERE f.id = previous.id AND f.challenge_hash = \(challengeHash.bytea) AND f.challenge_expires_at > \(time)
            RETURNING \(unescaped: Columns.list(Columns.flow, of: "previous"))
            """,
            doing: "consume the challenge"
        ).first.map { row throws(StoreError) in try FlowRecord(row) }
    }

    public func redeemResult(
        flowID: String,
        resultTokenHash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> FlowRecord? {
        // As consumeChallenge: one locking, compare-and-set statement that returns the flow as it was.
        try await rows(
            """
            WITH previous AS (
                SELECT \(unescaped: Columns.list(Columns.flow)) FROM flows
                WHERE id = \(flowID) AND status = \(FlowStatus.completed.rawValue)
                    AND result_token_hash = \(resultTokenHash.bytea) AND result_expires_at > \(time)
                FOR UPDATE
            )
            UPDATE flows AS f
            SET status = \(FlowStatus.redeemed.rawValue), updated_at = \(time)
            FROM previous
            WHERE f.id = previous.id AND f.status = \(FlowStatus.completed.rawValue)
                AND f.result_token_hash = \(resultTokenHash.bytea) AND f.result_expires_at > \(time)
            RETURNING \(unescaped: Columns.list(Columns.flow, of: "previous"))
            """,
            doing: "redeem the result"
        ).first.map { row throws(StoreError) in try FlowRecord(row) }
    }

    /// `update` as one `UPDATE … RETURNING` of the flow, as ``FlowUpdate/applied(to:at:)`` does it: unset members
    /// keep their column, `clearChallenge` nulls the challenge before a new one is set. With `expectedStatuses`,
    /// only a flow in one of them that has not expired at `time` matches; without, any flow with the id.
    static func flowUpdate(
        id: String,
        update: FlowUpdate,
        at time: Date,
        expectedStatuses: Set<FlowStatus>?
    ) -> PostgresQuery {
        let set = """
            status = COALESCE($2::text, status),
            challenge_hash = COALESCE($3::bytea, CASE WHEN $4::boolean THEN NULL ELSE challenge_hash END),
            challenge_expires_at = COALESCE($5::timestamptz, CASE WHEN $4::boolean THEN NULL ELSE challenge_expires_at END),
            result_token_hash = COALESCE($6::bytea, result_token_hash),
            result_expires_at = COALESCE($7::timestamptz, result_expires_at),
            payload = COALESCE($8::bytea, payload),
            updated_at = $9::timestamptz
            """
        var binds = PostgresBindings(capacity: 10)
        binds.append(id)
        binds.append(update.status?.rawValue)
        binds.append(update.challengeHash?.bytea)
        binds.append(update.clearChallenge)
        binds.append(update.challengeExpiresAt)
        binds.append(update.resultTokenHash?.bytea)
        binds.append(update.resultExpiresAt)
        binds.append(update.payload?.bytea)
        binds.append(time)
        var condition = "id = $1"
        if let expectedStatuses {
            binds.append(expectedStatuses.map(\.rawValue))
            condition += " AND status = ANY($10::text[]) AND expires_at > $9::timestamptz"
        }
        return PostgresQuery(
            unsafeSQL: "UPDATE flows SET \(set) WHERE \(condition) RETURNING \(Columns.list(Columns.flow))",
            binds: binds
        )
    }
}
