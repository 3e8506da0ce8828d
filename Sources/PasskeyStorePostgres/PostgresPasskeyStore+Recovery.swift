public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: RecoveryStore {
    public func createRecoveryAttempt(_ attempt: RecoveryAttemptRecord) async throws(StoreError) {
        // One INSERT: the primary key refuses a known id, the foreign key a missing user (or one deleted meanwhile).
        _ = try await rows(
            """
            INSERT INTO recovery_attempts (\(unescaped: Columns.list(Columns.recoveryAttempt)))
            VALUES (
                \(attempt.id), \(attempt.userID), \(attempt.tokenHash.bytea), \(attempt.status.rawValue),
                \(attempt.registrationFlowID)::text, \(attempt.createdAt), \(attempt.updatedAt), \(attempt.expiresAt),
                \(attempt.startedBy.rawValue)
            )
            """,
            doing: "create the recovery attempt"
        )
    }

    public func recoveryAttempt(id: String) async throws(StoreError) -> RecoveryAttemptRecord? {
        try await rows(
            "SELECT \(unescaped: Columns.list(Columns.recoveryAttempt)) FROM recovery_attempts WHERE id = \(id)",
            doing: "read the recovery attempt"
        )
        .first.map { row throws(StoreError) in try RecoveryAttemptRecord(row) }
    }

    public func exchangeRecoveryToken(
        attemptID: String,
        tokenHash: [UInt8],
        registrationFlow: FlowRecord,
        at time: Date
    ) async throws(StoreError) -> RecoveryAttemptRecord? {
        // The conditional UPDATE locks the row: a racing exchange waits, checks its conditions again against what
        // this one committed, and matches nothing. The flow is inserted in the same transaction.
        try await transaction(doing: "exchange the recovery token") { connection throws -> RecoveryAttemptRecord? in
            guard
                let row = try await connection.rows(
                    """
                    UPDATE recovery_attempts
                    SET status = 'exchanged', registration_flow_id = \(registrationFlow.id), updated_at = \(time)
                    WHERE id = \(attemptID) AND status = 'pending' AND token_hash = \(tokenHash.bytea)
                        AND expires_at > \(time)
                    RETURNING \(unescaped: Columns.list(Columns.recoveryAttempt))
                    """
                ).first
            else { return nil }
            try await connection.rows(InsertFlow(flow: registrationFlow))
            return try RecoveryAttemptRecord(row)
        }
    }

    public func finalizeRecovery(
        attemptID: String,
        revoking: RecoveryRevocation,
        at time: Date
    ) async throws(StoreError) -> RecoveryFinalization? {
        try await transaction(doing: "finalize the recovery") { connection throws -> RecoveryFinalization? in
            guard
                let owner = try await connection.rows(
                    "SELECT user_id FROM recovery_attempts WHERE id = \(attemptID)"
                ).first
            else { return nil }
            let userID: String = try RowReader(owner, record: "recovery attempt")("user_id")
            // Locks in the order every operation takes them: the user, then the attempt, the credentials, the flows.
            guard try await Self.lockUser(userID, on: connection),
                let attemptRow = try await connection.rows(
                    """
                    SELECT \(unescaped: Columns.list(Columns.recoveryAttempt)) FROM recovery_attempts
                    WHERE id = \(attemptID) AND status = 'exchanged' AND expires_at > \(time) FOR UPDATE
                    """
                ).first
            else { return nil }
            let attempt = try RecoveryAttemptRecord(attemptRow)
            guard let flowID = attempt.registrationFlowID,
                let credentialRow = try await connection.rows(
                    """
                    UPDATE credentials SET status = 'active', reserved_until = NULL
                    WHERE flow_id = \(flowID) AND user_id = \(userID) AND status = 'reserved'
                        AND reserved_until > \(time)
                    RETURNING \(unescaped: Columns.list(Columns.credential))
                    """
                ).first
            else { return nil }
            let credential = try CredentialRecordRow(credentialRow)
            let revoked = try await connection.rows(
                """
                UPDATE credentials SET status = 'revoked', revoked_at = \(time)
                WHERE user_id = \(userID) AND id <> \(credential.id.bytea) AND status <> 'revoked'
                    AND (\(revoking == .all) OR NOT backup_eligible) AND \(revoking != .none)
                RETURNING \(unescaped: Columns.list(Columns.credential))
                """
            ).map { row throws(StoreError) in try CredentialRecordRow(row) }
            let finalized = try await connection.rows(
                """
                UPDATE recovery_attempts SET status = 'finalized', updated_at = \(time) WHERE id = \(attemptID)
                RETURNING \(unescaped: Columns.list(Columns.recoveryAttempt))
                """
            ).first.map { row throws(StoreError) in try RecoveryAttemptRecord(row) }
            try await connection.rows(
                "UPDATE flows SET status = 'finalized', updated_at = \(time) WHERE id = \(flowID)"
            )
            try await connection.rows("DELETE FROM web_sessions WHERE user_id = \(userID)")
            _ = try await Self.endFlowsInFlight(ofUser: userID, at: time, on: connection)
            return RecoveryFinalization(
                attempt: finalized ?? attempt,
                credential: credential,
                revoked: revoked.sorted { $0.id.lexicographicallyPrecedes($1.id) }
            )
        }
    }

    public func cancelRecoveryAttempt(id: String, at time: Date) async throws(StoreError) -> RecoveryAttemptRecord? {
        try await transaction(doing: "cancel the recovery attempt") { connection throws -> RecoveryAttemptRecord? in
            guard
                let owner = try await connection.rows("SELECT user_id FROM recovery_attempts WHERE id = \(id)").first
            else { return nil }
            let userID: String = try RowReader(owner, record: "recovery attempt")("user_id")
            // The user's lock first, as finalizing takes it: a cancel and a finalize of one attempt queue on it.
            guard try await Self.lockUser(userID, on: connection),
                let row = try await connection.rows(
                    """
                    UPDATE recovery_attempts SET status = 'cancelled', updated_at = \(time)
                    WHERE id = \(id) AND status IN ('pending', 'exchanged')
                    RETURNING \(unescaped: Columns.list(Columns.recoveryAttempt))
                    """
                ).first
            else { return nil }
            let attempt = try RecoveryAttemptRecord(row)
            if let flowID = attempt.registrationFlowID {
                try await connection.rows("DELETE FROM credentials WHERE flow_id = \(flowID) AND status = 'reserved'")
                try await connection.rows(
                    "UPDATE flows SET status = 'aborted', updated_at = \(time) WHERE id = \(flowID)"
                )
            }
            return attempt
        }
    }
}

extension Columns {
    static let recoveryAttempt = [
        "id", "user_id", "token_hash", "status", "registration_flow_id", "created_at", "updated_at", "expires_at",
        "started_by",
    ]
}

extension RecoveryAttemptRecord {
    init(_ row: PostgresRow) throws(StoreError) {
        let read = RowReader(row, record: "recovery attempt")
        let statusText: String = try read("status")
        guard let status = Status(rawValue: statusText) else {
            throw read.corrupt("status", "is '\(statusText)', not a status of a recovery attempt")
        }
        let starterText: String = try read("started_by")
        guard let starter = Starter(rawValue: starterText) else {
            throw read.corrupt("started_by", "is '\(starterText)', not a starter of a recovery attempt")
        }
        self.init(
            id: try read("id"),
            userID: try read("user_id"),
            tokenHash: try read.bytes("token_hash"),
            status: status,
            registrationFlowID: try read("registration_flow_id"),
            createdAt: try read("created_at"),
            updatedAt: try read("updated_at"),
            expiresAt: try read("expires_at"),
            startedBy: starter
        )
    }
}
