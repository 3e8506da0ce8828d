public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: WebSessionStore {
    public func createWebSession(_ session: WebSessionRecord, maximumPerUser: Int) async throws(StoreError) {
        guard let userID = session.userID else {
            _ = try await rows(Self.insert(session), doing: "create the web session")
            return
        }
        // The user's row lock serialises the sign-ins of one user in every process, so the bound holds; a missing
        // user is refused by the insert's foreign key.
        try await transaction(doing: "create the web session") { connection in
            _ = try await Self.lockUser(userID, on: connection)
            try await connection.rows(Self.insert(session))
            try await connection.rows(
                """
                DELETE FROM web_sessions WHERE user_id = \(userID) AND id NOT IN (
                    SELECT id FROM web_sessions WHERE user_id = \(userID)
                    ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT \(Int64(max(1, maximumPerUser)))
                )
                """
            )
        }
    }

    private static func insert(_ session: WebSessionRecord) -> PostgresQuery {
        // One statement: the insert, which the primary key, the unique secret and the foreign key to the user may
        // refuse (undoing the whole statement), and the deletion of expired sessions, skipping those another
        // process is deleting rather than waiting for them. The deletion leaves a session with the new one's id or
        // secret alone, so that the insert is refused by it whether or not it has expired.
        """
        WITH purged AS (
            DELETE FROM web_sessions WHERE id IN (
                SELECT id FROM web_sessions
                WHERE expires_at < \(session.createdAt) AND id <> \(session.id)
                    AND secret_hash <> \(session.secretHash.bytea)
                ORDER BY expires_at LIMIT \(Int64(WebSessionRecord.removedPerCall)) FOR UPDATE SKIP LOCKED
            )
        )
        INSERT INTO web_sessions (\(unescaped: Columns.list(Columns.webSession)))
        VALUES (
            \(session.id), \(session.secretHash.bytea), \(session.kind.rawValue), \(session.userID)::text,
            \(session.operatorName)::text, \(session.credentialID?.bytea)::bytea, \(session.clientIP)::text,
            \(session.createdAt), \(session.expiresAt)
        )
        """
    }

    public func webSession(secretHash: [UInt8], at time: Date) async throws(StoreError) -> WebSessionRecord? {
        try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.webSession)) FROM web_sessions
            WHERE secret_hash = \(secretHash.bytea) AND expires_at > \(time)
            """,
            doing: "read the web session"
        )
        .first.map { row throws(StoreError) in try WebSessionRecord(row) }
    }

    public func webSessions(userID: String, at time: Date) async throws(StoreError) -> [WebSessionRecord] {
        var sessions: [WebSessionRecord] = []
        for row in try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.webSession)) FROM web_sessions
            WHERE user_id = \(userID) AND expires_at > \(time)
            ORDER BY created_at DESC, id COLLATE "C" DESC
            """,
            doing: "list the user's web sessions"
        ) {
            sessions.append(try WebSessionRecord(row))
        }
        return sessions
    }

    public func webSessions(
        userID: String?,
        at time: Date,
        offset: Int,
        limit: Int
    ) async throws(StoreError) -> [WebSessionRecord] {
        guard limit > 0 else { return [] }
        var sessions: [WebSessionRecord] = []
        for row in try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.webSession)) FROM web_sessions
            WHERE (\(userID)::text IS NULL AND user_id IS NULL AND kind = 'console' OR user_id = \(userID)::text)
                AND expires_at > \(time)
            ORDER BY created_at DESC, id COLLATE "C" DESC
            LIMIT \(Int64(limit)) OFFSET \(Int64(max(0, offset)))
            """,
            doing: "list web sessions"
        ) {
            sessions.append(try WebSessionRecord(row))
        }
        return sessions
    }

    public func deleteWebSession(id: String) async throws(StoreError) -> Bool {
        try await !rows("DELETE FROM web_sessions WHERE id = \(id) RETURNING id", doing: "end the web session").isEmpty
    }

    public func deleteWebSessions(userID: String, credentialID: [UInt8]?) async throws(StoreError) -> Int {
        let credential = credentialID?.bytea
        return try await rows(
            """
            DELETE FROM web_sessions
            WHERE user_id = \(userID) AND (\(credential)::bytea IS NULL OR credential_id = \(credential)::bytea)
            RETURNING id
            """,
            doing: "end the user's web sessions"
        ).count
    }

    public func signOutEverywhere(userID: String, at time: Date) async throws(StoreError) -> Int {
        try await transaction(doing: "sign the user out everywhere") { connection in
            guard try await Self.endFlowsInFlight(ofUser: userID, at: time, on: connection) else { return 0 }
            return try await connection.rows("DELETE FROM web_sessions WHERE user_id = \(userID) RETURNING id").count
        }
    }
}

extension WebSessionRecord {
    init(_ row: PostgresRow) throws(StoreError) {
        let read = RowReader(row, record: "web session")
        let kindText: String = try read("kind")
        guard let kind = Kind(rawValue: kindText) else {
            throw read.corrupt("kind", "is '\(kindText)', not a kind of web session")
        }
        self.init(
            id: try read("id"),
            secretHash: try read.bytes("secret_hash"),
            kind: kind,
            userID: try read("user_id"),
            operatorName: try read("operator_name"),
            credentialID: try read.optionalBytes("credential_id"),
            clientIP: try read("client_ip"),
            createdAt: try read("created_at"),
            expiresAt: try read("expires_at")
        )
    }
}
