public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: FlowStore {
    public func createFlow(_ flow: FlowRecord, audit: AuditAppend?) async throws(StoreError) {
        try await auditedWrite(audit) { () throws(StoreError) in
            _ = try await rows(InsertFlow(flow: flow), doing: "create the flow")
        }
    }

    public func flow(id: String) async throws(StoreError) -> FlowRecord? {
        try await rows(ReadFlow(id: id), doing: "read the flow").first.map { row throws(StoreError) in
            try FlowRecord(row)
        }
    }

    public func updateFlow(
        id: String,
        expectedStatuses: Set<FlowStatus>,
        at time: Date,
        update: FlowUpdate
    ) async throws(StoreError) -> FlowRecord? {
        try await rows(
            UpdateFlow(id: id, update: update, at: time, expectedStatuses: expectedStatuses),
            doing: "update the flow"
        )
        .first.map { row throws(StoreError) in try FlowRecord(row) }
    }

    public func consumeChallenge(
        flowID: String,
        challengeHash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> FlowRecord? {
        try await rows(
            ConsumeChallenge(flowID: flowID, challengeHash: challengeHash, time: time),
            doing: "consume the challenge"
        ).first.map { row throws(StoreError) in try FlowRecord(row) }
    }

    public func redeemResult(
        flowID: String,
        resultTokenHash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> FlowRecord? {
        try await rows(
            RedeemResult(flowID: flowID, resultTokenHash: resultTokenHash, time: time),
            doing: "redeem the result"
        ).first.map { row throws(StoreError) in try FlowRecord(row) }
    }

    public func purgedRegistration(id: String) async throws(StoreError) -> Date? {
        try await rows(
            "SELECT purged_at FROM purged_registrations WHERE id = \(id)",
            doing: "read a purged registration"
        )
        .first.map { row throws(StoreError) in
            do { return try row.decode(Date.self) } catch {
                throw StoreError(.corrupt, "A stored purged registration's time cannot be read: \(error).")
            }
        }
    }
}

/// The `INSERT` of a new flow.
struct InsertFlow: StoreStatement {
    static let sql = """
        INSERT INTO flows (\(Columns.list(Columns.flow)))
        VALUES ($1, $2, $3, $4::text, $5, $6::bytea, $7::timestamptz, $8::bytea, $9::timestamptz, $10, $11, $12, $13)
        """
    let flow: FlowRecord

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 13)
        binds.append(flow.id)
        binds.append(flow.kind.rawValue)
        binds.append(flow.status.rawValue)
        binds.append(flow.userID)
        binds.append(flow.clientTokenHash.bytea)
        binds.append(flow.challengeHash?.bytea)
        binds.append(flow.challengeExpiresAt)
        binds.append(flow.resultTokenHash?.bytea)
        binds.append(flow.resultExpiresAt)
        binds.append(flow.expiresAt)
        binds.append(flow.createdAt)
        binds.append(flow.updatedAt)
        binds.append(flow.payload.bytea)
        return binds
    }
}

struct ReadFlow: StoreStatement {
    static let sql = "SELECT \(Columns.list(Columns.flow)) FROM flows WHERE id = $1"
    let id: String

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(id)
        return binds
    }
}

/// `update` as one `UPDATE … RETURNING` of the flow, as ``FlowUpdate/applied(to:at:)`` does it: unset members keep
/// their column, `clearChallenge` nulls the challenge before a new one is set. With `expectedStatuses`, only a flow
/// in one of them that has not expired at `time` matches; without, any flow with the id.
struct UpdateFlow: StoreStatement {
    /// The assignments, with the flow's id in `$1` and the update's values in `$2` to `$9` (``append(to:)``).
    static let assignments = """
        status = COALESCE($2::text, status),
        challenge_hash = COALESCE($3::bytea, CASE WHEN $4::boolean THEN NULL ELSE challenge_hash END),
        challenge_expires_at = COALESCE($5::timestamptz, CASE WHEN $4::boolean THEN NULL ELSE challenge_expires_at END),
        result_token_hash = COALESCE($6::bytea, result_token_hash),
        result_expires_at = COALESCE($7::timestamptz, result_expires_at),
        payload = COALESCE($8::bytea, payload),
        updated_at = $9::timestamptz
        """
    /// Which flow may be updated, with the expected statuses in `$10` (null: any flow with the id).
    static let condition = """
        id = $1 AND ($10::text[] IS NULL OR (status = ANY($10::text[]) AND expires_at > $9::timestamptz))
        """
    static let sql = """
        UPDATE flows SET \(assignments) WHERE \(condition) RETURNING \(Columns.list(Columns.flow))
        """
    let id: String
    let update: FlowUpdate
    let time: Date
    let expectedStatuses: Set<FlowStatus>?

    init(id: String, update: FlowUpdate, at time: Date, expectedStatuses: Set<FlowStatus>?) {
        self.id = id
        self.update = update
        self.time = time
        self.expectedStatuses = expectedStatuses
    }

    /// Appends `$1` to `$10`.
    func append(to binds: inout PostgresBindings) {
        binds.append(id)
        binds.append(update.status?.rawValue)
        binds.append(update.challengeHash?.bytea)
        binds.append(update.clearChallenge)
        binds.append(update.challengeExpiresAt)
        binds.append(update.resultTokenHash?.bytea)
        binds.append(update.resultExpiresAt)
        binds.append(update.payload?.bytea)
        binds.append(time)
        binds.append(expectedStatuses.map { $0.map(\.rawValue) })
    }

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 10)
        append(to: &binds)
        return binds
    }
}

/// One statement. The CTE locks the matching row and keeps it as it was, which is what the contract returns; the
/// UPDATE's own conditions make it a compare-and-set: a racing caller that waited for the lock finds the challenge
/// gone and matches nothing.
struct ConsumeChallenge: StoreStatement {
    static let sql = """
        WITH previous AS (
            SELECT \(Columns.list(Columns.flow)) FROM flows
            WHERE id = $1 AND challenge_hash = $2 AND challenge_expires_at > $3
            FOR UPDATE
        )
        UPDATE flows AS f
        SET status = '\(FlowStatus.verifying.rawValue)', challenge_hash = NULL, challenge_expires_at = NULL, updated_at = $3
        FROM previous
        WHERE f.id = previous.id AND f.challenge_hash = $2 AND f.challenge_expires_at > $3
        RETURNING \(Columns.list(Columns.flow, of: "previous"))
        """
    let flowID: String
    let challengeHash: [UInt8]
    let time: Date

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 3)
        binds.append(flowID)
        binds.append(challengeHash.bytea)
        binds.append(time)
        return binds
    }
}

/// As ``ConsumeChallenge``: one locking, compare-and-set statement that returns the flow as it was.
struct RedeemResult: StoreStatement {
    static let sql = """
        WITH previous AS (
            SELECT \(Columns.list(Columns.flow)) FROM flows
            WHERE id = $1 AND status = '\(FlowStatus.completed.rawValue)'
                AND result_token_hash = $2 AND result_expires_at > $3
            FOR UPDATE
        )
        UPDATE flows AS f
        SET status = '\(FlowStatus.redeemed.rawValue)', updated_at = $3
        FROM previous
        WHERE f.id = previous.id AND f.status = '\(FlowStatus.completed.rawValue)'
            AND f.result_token_hash = $2 AND f.result_expires_at > $3
        RETURNING \(Columns.list(Columns.flow, of: "previous"))
        """
    let flowID: String
    let resultTokenHash: [UInt8]
    let time: Date

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 3)
        binds.append(flowID)
        binds.append(resultTokenHash.bytea)
        binds.append(time)
        return binds
    }
}
