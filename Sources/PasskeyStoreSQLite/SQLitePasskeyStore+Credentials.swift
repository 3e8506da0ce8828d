public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore {
    public func credential(id: [UInt8]) async throws(StoreError) -> CredentialRecordRow? {
        try await connection.session { db in try Self.credential(db, id: id) }
    }

    public func credentials(userID: String) async throws(StoreError) -> [CredentialRecordRow] {
        try await connection.session { db in try Self.credentials(db, userID: userID) }
    }

    public func renameCredential(
        id: [UInt8],
        name: String,
        nameKey: String,
        at time: Date
    ) async throws(StoreError)
        -> CredentialRecordRow?
    {
        try await connection.session { db in
            guard var credential = try Self.credential(db, id: id), credential.status != .revoked else {
                return nil
            }
            let live = try Self.liveCredentials(
                db,
                userID: credential.userID,
                nameKey: nameKey,
                at: time,
                excluding: id
            )
            guard live.withName == 0 else {
                throw StoreError(.nameTaken, "Another credential of this user is named '\(name)'.")
            }
            try db.execute(
                "UPDATE credentials SET name = ?, name_key = ? WHERE id = ?",
                [Bind.text(name), Bind.text(nameKey), Bind.bytes(id)]
            )
            credential.name = name
            credential.nameKey = nameKey
            return credential
        }
    }

    public func recordCredentialUse(
        id: [UInt8],
        expectedSignCount: UInt32,
        signCount: UInt32,
        backupState: Bool,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow? {
        // One conditional UPDATE, which takes the write lock before it reads the row: of racing uses with the same
        // expected counter, and of a use racing a revocation, the first to write wins and the others match no row.
        try await connection.session { db in
            try db.rows(
                """
                UPDATE credentials SET sign_count = ?, backup_state = ?, last_used_at = ?
                WHERE id = ? AND status = 'active' AND sign_count = ?
                RETURNING \(CredentialRows.columns)
                """,
                [
                    Bind.integer(Int64(signCount)), Bind.bool(backupState), Bind.date(time), Bind.bytes(id),
                    Bind.integer(Int64(expectedSignCount)),
                ]
            ).first.map(CredentialRows.decode)
        }
    }

    public func revokeCredential(id: [UInt8], at time: Date) async throws(StoreError) -> CredentialRecordRow? {
        // One conditional UPDATE: of two racing revocations, one returns the row, and ends the user's flows.
        try await connection.session { db in
            guard
                let revoked = try db.rows(
                    """
                    UPDATE credentials SET status = 'revoked', revoked_at = ? WHERE id = ? AND status != 'revoked'
                    RETURNING \(CredentialRows.columns)
                    """,
                    [Bind.date(time), Bind.bytes(id)]
                ).first.map(CredentialRows.decode)
            else { return nil }
            try Self.endFlowsInFlight(db, userID: revoked.userID, at: time)
            return revoked
        }
    }

    public func insertCredential(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) {
        try await insert(
            credential,
            maximumActive: maximumActive,
            signUp: nil,
            flowID: flowID,
            flowUpdate: flowUpdate,
            at: time
        )
    }

    public func insertFirstCredential(
        _ credential: CredentialRecordRow,
        displayName: String,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) {
        try await insert(
            credential,
            maximumActive: 1,
            signUp: displayName,
            flowID: flowID,
            flowUpdate: flowUpdate,
            at: time
        )
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
        let binds = try CredentialRows.binds(credential)
        try await connection.session { db in
            if displayName != nil {
                let onRecord = try db.rows(
                    "SELECT 1 FROM credentials WHERE user_id = ? AND status <> 'reserved' LIMIT 1",
                    [Bind.text(credential.userID)]
                )
                guard onRecord.isEmpty else {
                    throw StoreError(.limitReached, "The user has had a passkey: the account is not claimed again.")
                }
            }
            // A reservation that expired without being settled no longer holds its id: the new credential
            // replaces it. Both happen in this transaction, or neither.
            try db.execute(
                """
                DELETE FROM credentials
                WHERE id = ? AND status = 'reserved' AND (reserved_until IS NULL OR reserved_until <= ?)
                """,
                [Bind.bytes(credential.id), Bind.date(time)]
            )
            let live = try Self.liveCredentials(db, userID: credential.userID, nameKey: credential.nameKey, at: time)
            try CredentialInsertion.check(
                credential,
                idKept: try Self.credential(db, id: credential.id) != nil,
                live: live.count,
                liveWithNameKey: live.withName,
                maximumActive: maximumActive
            )
            guard let flow = try Self.flow(db, id: flowID) else {
                throw StoreError(.notFound, "No flow \(flowID).")
            }
            guard flow.status != .aborted else { throw StoreError(.flowEnded, "The flow \(flowID) was ended.") }
            guard try Self.user(db, where: "id = ?", Bind.text(credential.userID)) != nil else {
                throw StoreError(.notFound, "No user \(credential.userID) for the credential.")
            }
            try db.execute(
                "INSERT INTO credentials (\(CredentialRows.columns)) VALUES (\(CredentialRows.placeholders))",
                binds
            )
            try Self.write(db, flowUpdate.applied(to: flow, at: time))
            if let displayName {
                try db.execute(
                    "UPDATE users SET display_name = ? WHERE id = ?",
                    [Bind.text(displayName), Bind.text(credential.userID)]
                )
            }
        }
    }

    public func settleReservation(
        flowID: String,
        finalize: Bool,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError)
        -> CredentialRecordRow?
    {
        try await connection.session { db in
            let reserved = try db.rows(
                """
                SELECT \(CredentialRows.columns) FROM credentials
                WHERE flow_id = ? AND status = 'reserved' AND reserved_until > ? ORDER BY rowid LIMIT 1
                """,
                [Bind.text(flowID), Bind.date(time)]
            )
            guard var credential = try reserved.first.map(CredentialRows.decode), credential.isLive(at: time),
                let flow = try Self.flow(db, id: flowID)
            else { return nil }
            if finalize {
                try db.execute(
                    "UPDATE credentials SET status = 'active', reserved_until = NULL WHERE id = ?",
                    [Bind.bytes(credential.id)]
                )
                credential.status = .active
                credential.reservedUntil = nil
            } else {
                try db.execute("DELETE FROM credentials WHERE id = ?", [Bind.bytes(credential.id)])
            }
            try Self.write(db, flowUpdate.applied(to: flow, at: time))
            return credential
        }
    }

    /// `INDEXED BY`: without it, checking whether the partial index `credentials_active_name` applies makes SQLite
    /// note the bound user id, and prepare the statement again for every other id.
    static func credentials(_ db: Database, userID: String) throws -> [CredentialRecordRow] {
        try db.rows(
            """
            SELECT \(CredentialRows.columns) FROM credentials INDEXED BY credentials_by_user
            WHERE user_id = ? AND status != 'revoked' ORDER BY created_at, id
            """,
            [Bind.text(userID)]
        ).map(CredentialRows.decode)
    }

    static func credential(_ db: Database, id: [UInt8]) throws -> CredentialRecordRow? {
        try db.rows("SELECT \(CredentialRows.columns) FROM credentials WHERE id = ?", [Bind.bytes(id)])
            .first.map(CredentialRows.decode)
    }

    /// How many of the user's credentials are live at `time` (active, or reserved until after `time`), and how
    /// many of those have the name key; `excluding` one credential.
    static func liveCredentials(
        _ db: Database,
        userID: String,
        nameKey: String,
        at time: Date,
        excluding excluded: [UInt8]? = nil
    ) throws -> (count: Int, withName: Int) {
        let rows = try db.rows(
            """
            SELECT count(*) AS live, coalesce(sum(name_key = ?), 0) AS with_name FROM credentials
            WHERE user_id = ? AND (status = 'active' OR (status = 'reserved' AND reserved_until > ?))
            AND (? IS NULL OR id != ?)
            """,
            [Bind.text(nameKey), Bind.text(userID), Bind.date(time), Bind.bytes(excluded), Bind.bytes(excluded)]
        )
        guard let row = rows.first else {
            throw StoreError(.corrupt, "The database returned no count of the user's credentials.")
        }
        let reader = RowReader(row: row, table: "credentials")
        return (try reader.int("live"), try reader.int("with_name"))
    }
}
