public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: RecoveryStore {
    public func createRecoveryAttempt(_ attempt: RecoveryAttemptRecord) async throws(StoreError) {
        // One INSERT: the primary key refuses a known id, the foreign key a missing user.
        try await connection.session { db in
            try db.execute(
                "INSERT INTO recovery_attempts (\(RecoveryAttemptRows.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                RecoveryAttemptRows.binds(attempt)
            )
        }
    }

    public func recoveryAttempt(id: String) async throws(StoreError) -> RecoveryAttemptRecord? {
        try await connection.session { db in
            try db.rows(
                "SELECT \(RecoveryAttemptRows.columns) FROM recovery_attempts WHERE id = ?",
                [Bind.text(id)]
            ).first.map(RecoveryAttemptRows.decode)
        }
    }

    public func exchangeRecoveryToken(
        attemptID: String,
        tokenHash: [UInt8],
        registrationFlow: FlowRecord,
        at time: Date
    ) async throws(StoreError) -> RecoveryAttemptRecord? {
        // The conditional UPDATE runs under the write lock: of racing exchanges, the first matches the row and the
        // others find it exchanged. The flow is inserted in the same transaction.
        try await connection.session { db in
            guard
                let attempt = try db.rows(
                    """
                    UPDATE recovery_attempts SET status = 'exchanged', registration_flow_id = ?, updated_at = ?
                    WHERE id = ? AND status = 'pending' AND token_hash = ? AND expires_at > ?
                    RETURNING \(RecoveryAttemptRows.columns)
                    """,
                    [
                        Bind.text(registrationFlow.id), Bind.date(time), Bind.text(attemptID), Bind.bytes(tokenHash),
                        Bind.date(time),
                    ]
                ).first.map(RecoveryAttemptRows.decode)
            else { return nil }
            try db.execute(
                "INSERT INTO flows (\(FlowRows.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                FlowRows.binds(registrationFlow)
            )
            return attempt
        }
    }

    public func finalizeRecovery(
        attemptID: String,
        revoking: RecoveryRevocation,
        at time: Date
    ) async throws(StoreError) -> RecoveryFinalization? {
        try await connection.session { db in
            guard
                let attempt = try db.rows(
                    """
                    SELECT \(RecoveryAttemptRows.columns) FROM recovery_attempts
                    WHERE id = ? AND status = 'exchanged' AND expires_at > ?
                    """,
                    [Bind.text(attemptID), Bind.date(time)]
                ).first.map(RecoveryAttemptRows.decode),
                let flowID = attempt.registrationFlowID
            else { return nil }
            guard
                var credential = try db.rows(
                    """
                    UPDATE credentials SET status = 'active', reserved_until = NULL
                    WHERE flow_id = ? AND user_id = ? AND status = 'reserved' AND reserved_until > ?
                    RETURNING \(CredentialRows.columns)
                    """,
                    [Bind.text(flowID), Bind.text(attempt.userID), Bind.date(time)]
                ).first.map(CredentialRows.decode)
            else { return nil }
            credential.reservedUntil = nil
            let revoked = try db.rows(
                """
                UPDATE credentials SET status = 'revoked', revoked_at = ?
                WHERE user_id = ? AND id != ? AND status != 'revoked' AND (? OR backup_eligible = 0) AND ?
                RETURNING \(CredentialRows.columns)
                """,
                [
                    Bind.date(time), Bind.text(attempt.userID), Bind.bytes(credential.id),
                    Bind.bool(revoking == .all), Bind.bool(revoking != .none),
                ]
            ).map(CredentialRows.decode).sorted { $0.id.lexicographicallyPrecedes($1.id) }
            let finalized = try db.rows(
                """
                UPDATE recovery_attempts SET status = 'finalized', updated_at = ? WHERE id = ?
                RETURNING \(RecoveryAttemptRows.columns)
                """,
                [Bind.date(time), Bind.text(attemptID)]
            ).first.map(RecoveryAttemptRows.decode)
            try db.execute(
                "UPDATE flows SET status = 'finalized', updated_at = ? WHERE id = ?",
                [Bind.date(time), Bind.text(flowID)]
            )
            try db.execute("DELETE FROM web_sessions WHERE user_id = ?", [Bind.text(attempt.userID)])
            try Self.endFlowsInFlight(db, userID: attempt.userID, at: time)
            return RecoveryFinalization(attempt: finalized ?? attempt, credential: credential, revoked: revoked)
        }
    }

    public func cancelRecoveryAttempt(id: String, at time: Date) async throws(StoreError) -> RecoveryAttemptRecord? {
        try await connection.session { db in
            guard
                let attempt = try db.rows(
                    """
                    UPDATE recovery_attempts SET status = 'cancelled', updated_at = ?
                    WHERE id = ? AND status IN ('pending', 'exchanged')
                    RETURNING \(RecoveryAttemptRows.columns)
                    """,
                    [Bind.date(time), Bind.text(id)]
                ).first.map(RecoveryAttemptRows.decode)
            else { return nil }
            if let flowID = attempt.registrationFlowID {
                try db.execute(
                    "DELETE FROM credentials WHERE flow_id = ? AND status = 'reserved'",
                    [Bind.text(flowID)]
                )
                try db.execute(
                    "UPDATE flows SET status = 'aborted', updated_at = ? WHERE id = ?",
                    [Bind.date(time), Bind.text(flowID)]
                )
            }
            return attempt
        }
    }
}

enum RecoveryAttemptRows {
    static let columns = """
        id, user_id, token_hash, status, registration_flow_id, created_at, updated_at, expires_at, started_by
        """

    static func decode(_ row: Row) throws(StoreError) -> RecoveryAttemptRecord {
        let reader = RowReader(row: row, table: "recovery_attempts")
        let statusText = try reader.text("status")
        guard let status = RecoveryAttemptRecord.Status(rawValue: statusText) else {
            throw StoreError(
                .corrupt,
                "A stored recovery_attempts row is invalid: its status '\(statusText)' is unknown."
            )
        }
        let starterText = try reader.text("started_by")
        guard let starter = RecoveryAttemptRecord.Starter(rawValue: starterText) else {
            throw StoreError(
                .corrupt,
                "A stored recovery_attempts row is invalid: its starter '\(starterText)' is unknown."
            )
        }
        return RecoveryAttemptRecord(
            id: try reader.text("id"),
            userID: try reader.text("user_id"),
            tokenHash: try reader.bytes("token_hash"),
            status: status,
            registrationFlowID: try reader.optionalText("registration_flow_id"),
            createdAt: try reader.date("created_at"),
            updatedAt: try reader.date("updated_at"),
            expiresAt: try reader.date("expires_at"),
            startedBy: starter
        )
    }

    static func binds(_ attempt: RecoveryAttemptRecord) -> [SQLValue] {
        [
            Bind.text(attempt.id), Bind.text(attempt.userID), Bind.bytes(attempt.tokenHash),
            Bind.text(attempt.status.rawValue), Bind.text(attempt.registrationFlowID), Bind.date(attempt.createdAt),
            Bind.date(attempt.updatedAt), Bind.date(attempt.expiresAt), Bind.text(attempt.startedBy.rawValue),
        ]
    }
}
