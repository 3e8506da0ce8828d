public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: CeremonyStore {
    public func insertCredential(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError) {
        try await auditedWrite(audit) { () throws(StoreError) in
            try await insert(
                credential,
                maximumActive: maximumActive,
                signUp: nil,
                flowID: flowID,
                flowUpdate: flowUpdate,
                at: time
            )
        }
    }

    public func insertFirstCredential(
        _ credential: CredentialRecordRow,
        displayName: String,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError) {
        try await auditedWrite(audit) { () throws(StoreError) in
            try await insert(
                credential,
                maximumActive: 1,
                signUp: displayName,
                flowID: flowID,
                flowUpdate: flowUpdate,
                at: time
            )
        }
    }

    /// `insertCredential`, and with `signUp` (the display name a sign-up asked for) `insertFirstCredential`.
    private func insert(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        signUp displayName: String?,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) {
        try await transaction(doing: "insert the credential") { connection in
            // The user's row lock serialises every insert for this user, in any process: the count and the name
            // check below hold until this transaction commits.
            guard try await Self.lockUser(credential.userID, on: connection) else {
                throw StoreError(.notFound, "No user \(credential.userID).")
            }
            if let displayName {
                let onRecord = try await connection.rows(
                    "SELECT 1 FROM credentials WHERE user_id = \(credential.userID) AND status <> 'reserved' LIMIT 1"
                )
                guard onRecord.isEmpty else {
                    throw StoreError(.limitReached, "The user has had a passkey: the account is not claimed again.")
                }
                try await connection.rows(
                    "UPDATE users SET display_name = \(displayName) WHERE id = \(credential.userID)"
                )
            }
            // A reservation that expired without being settled no longer holds its id: the new credential replaces
            // it. The DELETE takes the row's lock, so it waits for a transaction settling or replacing the same
            // row in another process, then re-checks the row as that transaction left it; the SELECT below then
            // sees what it committed.
            try await connection.rows(DeleteExpiredReservation(id: credential.id, time: time))
            let known = try await connection.rows(CredentialExists(id: credential.id))
            var liveNameKeys: [String] = []
            for row in try await connection.rows(LiveNameKeys(userID: credential.userID, time: time)) {
                liveNameKeys.append(try RowReader(row, record: "credential")("name_key"))
            }
            try CredentialInsertion.check(
                credential,
                idKept: !known.isEmpty,
                live: liveNameKeys.count,
                liveWithNameKey: liveNameKeys.count { $0 == credential.nameKey },
                maximumActive: maximumActive
            )
            // A reset of the user ends their flows under the same user lock: an ended flow stays ended here.
            guard try await connection.rows("SELECT 1 FROM flows WHERE id = \(flowID) AND status = 'aborted'").isEmpty
            else { throw StoreError(.flowEnded, "The flow \(flowID) was ended.") }
            let flow = try await connection.rows(
                UpdateFlow(id: flowID, update: flowUpdate, at: time, expectedStatuses: nil)
            )
            guard !flow.isEmpty else { throw StoreError(.notFound, "No flow \(flowID).") }
            try await connection.rows(InsertCredential(credential: credential))
        }
    }

    public func settleReservation(
        flowID: String,
        finalize: Bool,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow? {
        try await transaction(doing: finalize ? "finalize the reservation" : "release the reservation") {
            connection throws -> CredentialRecordRow? in
            let reservedOf = "flow_id = $1 AND status = 'reserved' AND reserved_until > $2"
            let candidates = try await connection.rows(
                PostgresQuery(
                    unsafeSQL: "SELECT user_id FROM credentials WHERE \(reservedOf) LIMIT 1",
                    binds: Self.binds(flowID, time)
                )
            )
            guard let candidate = candidates.first else { return nil }
            let userID: String = try RowReader(candidate, record: "credential")("user_id")
            // Locks in the order every operation takes them: the user, then the credential, then the flow.
            guard try await Self.lockUser(userID, on: connection) else { return nil }
            let reserved = try await connection.rows(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT \(Columns.list(Columns.credential)) FROM credentials
                        WHERE \(reservedOf) AND user_id = $3 ORDER BY created_at LIMIT 1 FOR UPDATE
                        """,
                    binds: Self.binds(flowID, time, userID)
                )
            )
            guard let row = reserved.first else { return nil }
            var credential = try CredentialRecordRow(row)
            guard try await !connection.rows("SELECT 1 FROM flows WHERE id = \(flowID) FOR UPDATE").isEmpty else {
                return nil
            }
            if finalize {
                try await connection.rows(
                    "UPDATE credentials SET status = 'active', reserved_until = NULL WHERE id = \(credential.id.bytea)"
                )
                credential.status = .active
                credential.reservedUntil = nil
            } else {
                try await connection.rows("DELETE FROM credentials WHERE id = \(credential.id.bytea)")
            }
            try await connection.rows(UpdateFlow(id: flowID, update: flowUpdate, at: time, expectedStatuses: nil))
            return credential
        }
    }

    public func recordAuthentication(
        _ use: CredentialUse,
        flowID: String,
        expectedStatuses: Set<FlowStatus>,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError) -> AuthenticationRecording {
        try await auditedWrite(audit, if: \.isRecorded) { () throws(StoreError) in
            let statement = RecordAuthentication(
                use: use,
                flow: UpdateFlow(id: flowID, update: flowUpdate, at: time, expectedStatuses: expectedStatuses)
            )
            guard let row = try await rows(statement, doing: "record the sign-in").first else {
                return .credentialNotRecorded(current: nil)
            }
            let credential = try CredentialRecordRow(row)
            guard
                try RowReader(row, record: "flow", prefix: RecordAuthentication.flowPrefix)("id", as: String?.self)
                    != nil
            else {
                let applies = credential.status == .active && credential.signCount == use.expectedSignCount
                return applies ? .flowNotUpdated : .credentialNotRecorded(current: credential)
            }
            return .recorded(credential: credential, flow: try FlowRecord(row, prefix: RecordAuthentication.flowPrefix))
        }
    }

    // MARK: Helpers

    static func binds(_ first: String, _ time: Date, _ third: String? = nil) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(first)
        binds.append(time)
        if let third { binds.append(third) }
        return binds
    }
}

/// Deletes the credential with the id when it is a reservation that expired at `time`.
struct DeleteExpiredReservation: StoreStatement {
    static let sql = """
        DELETE FROM credentials
        WHERE id = $1 AND status = 'reserved' AND (reserved_until IS NULL OR reserved_until <= $2)
        """
    let id: [UInt8]
    let time: Date

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 2)
        binds.append(id.bytea)
        binds.append(time)
        return binds
    }
}

/// One row when a credential with the id is stored.
struct CredentialExists: StoreStatement {
    static let sql = "SELECT 1 FROM credentials WHERE id = $1"
    let id: [UInt8]

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(id.bytea)
        return binds
    }
}

/// The name keys of a user's live credentials at `time`: the active ones and the reservations not expired.
struct LiveNameKeys: StoreStatement {
    static let sql = """
        SELECT name_key FROM credentials
        WHERE user_id = $1 AND (status = 'active' OR (status = 'reserved' AND reserved_until > $2))
        """
    let userID: String
    let time: Date

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 2)
        binds.append(userID)
        binds.append(time)
        return binds
    }
}

/// The `INSERT` of a new credential.
struct InsertCredential: StoreStatement {
    static let sql = """
        INSERT INTO credentials (\(Columns.list(Columns.credential)))
        VALUES (
            $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
            $17::timestamptz, $18::text, $19, $20::timestamptz, $21::timestamptz, $22::text, $23
        )
        """
    let credential: CredentialRecordRow

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 23)
        binds.append(credential.id.bytea)
        binds.append(credential.userID)
        binds.append(credential.publicKey.bytea)
        binds.append(credential.algorithm)
        binds.append(Int64(credential.signCount))
        binds.append(credential.aaguid)
        binds.append(credential.attestationFormat)
        binds.append(credential.attestationType)
        binds.append(credential.attestationTrusted)
        binds.append(credential.transports)
        binds.append(credential.backupEligible)
        binds.append(credential.backupState)
        binds.append(credential.userVerified)
        binds.append(credential.name)
        binds.append(credential.nameKey)
        binds.append(credential.status.rawValue)
        binds.append(credential.reservedUntil)
        binds.append(credential.flowID)
        binds.append(credential.createdAt)
        binds.append(credential.lastUsedAt)
        binds.append(credential.revokedAt)
        binds.append(credential.workflowRunID)
        binds.append(credential.consoleEnrolled)
        return binds
    }
}

/// A verified sign-in in one statement: the credential's use, a compare-and-set on its status and counter, and the
/// flow's update (``UpdateFlow``, whose values are `$1` to `$10`), both or neither.
///
/// `credential` locks the credential's row first, as every operation that locks both takes them, and reads it as
/// last committed: a call that waited for a racing use reads the counter that one wrote. `flow` locks the flow
/// only when the use applies to that row, and only when the flow may be updated; the two updates then run only
/// when both hold, on rows this statement has locked, so they cannot fail apart. The row returned is the
/// credential (as written, or as it stands) with the flow as updated in the columns prefixed ``flowPrefix``, null
/// when nothing was written; no row when there is no such credential.
struct RecordAuthentication: StoreStatement {
    static let flowPrefix = "updated_"
    static let sql = """
        WITH credential AS MATERIALIZED (
            SELECT \(Columns.list(Columns.credential)) FROM credentials WHERE id = $11 FOR UPDATE
        ),
        flow AS MATERIALIZED (
            SELECT id FROM flows
            WHERE \(UpdateFlow.condition)
                AND EXISTS (SELECT 1 FROM credential WHERE status = 'active' AND sign_count = $12)
            FOR UPDATE
        ),
        used AS (
            UPDATE credentials SET sign_count = $13, backup_state = $14, last_used_at = $9::timestamptz
            WHERE id = $11 AND status = 'active' AND sign_count = $12 AND EXISTS (SELECT 1 FROM flow)
            RETURNING \(Columns.list(Columns.credential))
        ),
        updated AS (
            UPDATE flows SET \(UpdateFlow.assignments)
            WHERE id = $1 AND EXISTS (SELECT 1 FROM used)
            RETURNING \(Columns.list(Columns.flow))
        )
        SELECT \(Columns.list(Columns.credential, of: "c")), \(Columns.list(Columns.flow, of: "updated", as: flowPrefix))
        FROM (SELECT * FROM used UNION ALL SELECT * FROM credential WHERE NOT EXISTS (SELECT 1 FROM used)) AS c
        LEFT JOIN updated ON true
        """
    let use: CredentialUse
    let flow: UpdateFlow

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 14)
        flow.append(to: &binds)
        binds.append(use.credentialID.bytea)
        binds.append(Int64(use.expectedSignCount))
        binds.append(Int64(use.signCount))
        binds.append(use.backupState)
        return binds
    }
}
