public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: WebSessionStore {
    public func createWebSession(_ session: WebSessionRecord, maximumPerUser: Int) async throws(StoreError) {
        // One transaction, inserting first: the primary key and the unique index refuse an id or secret in use
        // (expired or not), the foreign key a missing user, and then nothing is deleted.
        try await connection.session { database in
            try database.execute(
                "INSERT INTO web_sessions (\(WebSessionRows.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                WebSessionRows.binds(session)
            )
            try database.execute(
                """
                DELETE FROM web_sessions WHERE id IN (
                    SELECT id FROM web_sessions WHERE expires_at < ? ORDER BY expires_at LIMIT ?
                )
                """,
                [Bind.date(session.createdAt), Bind.integer(WebSessionRecord.removedPerCall)]
            )
            // The user's oldest sessions beyond the bound end, along the user's index.
            if let userID = session.userID {
                try database.execute(
                    """
                    DELETE FROM web_sessions WHERE user_id = ?1 AND id NOT IN (
                        SELECT id FROM web_sessions WHERE user_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2
                    )
                    """,
                    [Bind.text(userID), Bind.integer(Int64(max(1, maximumPerUser)))]
                )
            }
        }
    }

    public func webSession(secretHash: [UInt8], at time: Date) async throws(StoreError) -> WebSessionRecord? {
        try await connection.session { db in
            try db.rows(
                "SELECT \(WebSessionRows.columns) FROM web_sessions WHERE secret_hash = ? AND expires_at > ?",
                [Bind.bytes(secretHash), Bind.date(time)]
            ).first.map(WebSessionRows.decode)
        }
    }

    public func webSessions(userID: String, at time: Date) async throws(StoreError) -> [WebSessionRecord] {
        // Ids compare with the BINARY collation, byte by byte.
        try await connection.session { db in
            try db.rows(
                """
                SELECT \(WebSessionRows.columns) FROM web_sessions WHERE user_id = ? AND expires_at > ?
                ORDER BY created_at DESC, id DESC
                """,
                [Bind.text(userID), Bind.date(time)]
            ).map(WebSessionRows.decode)
        }
    }

    public func webSessions(
        userID: String?,
        at time: Date,
        offset: Int,
        limit: Int
    ) async throws(StoreError) -> [WebSessionRecord] {
        guard limit > 0 else { return [] }
        let owner = userID == nil ? "user_id IS NULL AND kind = 'console'" : "user_id = ?3"
        return try await connection.session { db in
            try db.rows(
                """
                SELECT \(WebSessionRows.columns) FROM web_sessions WHERE \(owner) AND expires_at > ?4
                ORDER BY created_at DESC, id DESC LIMIT ?1 OFFSET ?2
                """,
                [
                    Bind.integer(Int64(limit)), Bind.integer(Int64(max(0, offset))), Bind.text(userID), Bind.date(time),
                ]
            ).map(WebSessionRows.decode)
        }
    }

    public func deleteWebSession(id: String) async throws(StoreError) -> Bool {
        try await connection.session { db in
            try !db.rows("DELETE FROM web_sessions WHERE id = ? RETURNING id", [Bind.text(id)]).isEmpty
        }
    }

    public func deleteWebSessions(userID: String, credentialID: [UInt8]?) async throws(StoreError) -> Int {
        try await connection.session { db in
            try db.rows(
                "DELETE FROM web_sessions WHERE user_id = ?1 AND (?2 IS NULL OR credential_id = ?2) RETURNING id",
                [Bind.text(userID), Bind.bytes(credentialID)]
            ).count
        }
    }

    public func signOutEverywhere(userID: String, at time: Date) async throws(StoreError) -> Int {
        try await connection.session { db in
            guard try Self.user(db, where: "id = ?", Bind.text(userID)) != nil else { return 0 }
            try Self.endFlowsInFlight(db, userID: userID, at: time)
            return try db.rows("DELETE FROM web_sessions WHERE user_id = ? RETURNING id", [Bind.text(userID)]).count
        }
    }
}

enum WebSessionRows {
    static let columns = """
        id, secret_hash, kind, user_id, operator_name, credential_id, client_ip, created_at, expires_at
        """

    static func decode(_ row: Row) throws(StoreError) -> WebSessionRecord {
        let reader = RowReader(row: row, table: "web_sessions")
        let kindText = try reader.text("kind")
        guard let kind = WebSessionRecord.Kind(rawValue: kindText) else {
            throw StoreError(.corrupt, "A stored web_sessions row is invalid: its kind '\(kindText)' is unknown.")
        }
        return WebSessionRecord(
            id: try reader.text("id"),
            secretHash: try reader.bytes("secret_hash"),
            kind: kind,
            userID: try reader.optionalText("user_id"),
            operatorName: try reader.optionalText("operator_name"),
            credentialID: try reader.optionalBytes("credential_id"),
            clientIP: try reader.optionalText("client_ip"),
            createdAt: try reader.date("created_at"),
            expiresAt: try reader.date("expires_at")
        )
    }

    static func binds(_ session: WebSessionRecord) -> [SQLValue] {
        [
            Bind.text(session.id), Bind.bytes(session.secretHash), Bind.text(session.kind.rawValue),
            Bind.text(session.userID), Bind.text(session.operatorName), Bind.bytes(session.credentialID),
            Bind.text(session.clientIP), Bind.date(session.createdAt), Bind.date(session.expiresAt),
        ]
    }
}
