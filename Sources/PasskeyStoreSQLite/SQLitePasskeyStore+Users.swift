import Foundation
public import PasskeyStorage
import SQLiteNIO

extension SQLitePasskeyStore {
    public func createUserIfAbsent(_ user: UserRecord) async throws(StoreError) -> UserRecord {
        try await lease.withTransaction { session in
            if let existing = try await Self.user(session, where: "id = ?", Bind.text(user.id)) { return existing }
            guard try await Self.user(session, where: "handle = ?", Bind.bytes(user.handle)) == nil else {
                throw StoreError(.duplicate, "Another user has this user handle.")
            }
            // In the write transaction: a racing create of the same name waits, then finds this user.
            guard try await Self.user(session, where: "name = ?", Bind.text(user.name)) == nil else {
                throw StoreError.userNameTaken
            }
            try await session.execute(
                "INSERT INTO users (\(UserRows.columns)) VALUES (?, ?, ?, ?, ?)",
                UserRows.binds(user)
            )
            return user
        }
    }

    public func user(id: String) async throws(StoreError) -> UserRecord? {
        try await lease.withSession { session in try await Self.user(session, where: "id = ?", Bind.text(id)) }
    }

    public func user(handle: [UInt8]) async throws(StoreError) -> UserRecord? {
        try await lease.withSession { session in try await Self.user(session, where: "handle = ?", Bind.bytes(handle)) }
    }

    public func deleteUser(id: String) async throws(StoreError) -> Bool {
        try await lease.withTransaction { session in
            // Credentials, flows, web sessions and identity-verification runs go with the user (ON DELETE CASCADE).
            try await !session.rows("DELETE FROM users WHERE id = ? RETURNING id", [Bind.text(id)]).isEmpty
        }
    }

    public func users(
        matching query: String?,
        after: String?,
        limit: Int
    ) async throws(StoreError) -> [UserSummary] {
        guard limit > 0 else { return [] }
        // `id > ?` and `ORDER BY id` compare with the BINARY collation (the bytes), along the primary key's index.
        // The built-in `lower()` changes ASCII letters only, and `instr` finds the query as it is, so no character
        // of it is a wildcard.
        var sql = """
            SELECT \(UserRows.columns), (
                SELECT count(*) FROM credentials WHERE credentials.user_id = users.id AND credentials.status = 'active'
            ) AS active_credentials
            FROM users WHERE 1
            """
        var binds: [SQLiteData] = []
        if let after {
            sql += " AND id > ?"
            binds.append(Bind.text(after))
        }
        if let query, !query.isEmpty {
            let contains = ["id", "name", "display_name"].map { "instr(lower(\($0)), lower(?))" }
            sql += " AND (\(contains.joined(separator: " OR ")))"
            binds += Array(repeating: Bind.text(query), count: contains.count)
        }
        sql += " ORDER BY id LIMIT ?"
        binds.append(Bind.integer(limit))
        return try await lease.withSession { [sql, binds] session in
            try await session.rows(sql, binds).map(UserRows.decodeSummary)
        }
    }

    static func user(
        _ session: Session,
        where condition: String,
        _ bind: SQLiteData
    ) async throws -> UserRecord? {
        try await session.rows("SELECT \(UserRows.columns) FROM users WHERE \(condition)", [bind]).first.map(
            UserRows.decode
        )
    }
}
