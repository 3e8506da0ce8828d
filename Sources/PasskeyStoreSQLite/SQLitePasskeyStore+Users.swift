import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: UserStore {
    public func createUserIfAbsent(_ user: UserRecord) async throws(StoreError) -> UserRecord {
        try await connection.session { db in
            if let existing = try Self.user(db, where: "id = ?", Bind.text(user.id)) { return existing }
            guard try Self.user(db, where: "handle = ?", Bind.bytes(user.handle)) == nil else {
                throw StoreError(.duplicate, "Another user has this user handle.")
            }
            // In the write transaction: a racing create of the same name waits, then finds this user.
            guard try Self.user(db, where: "name = ?", Bind.text(user.name)) == nil else {
                throw StoreError.userNameTaken
            }
            try db.execute(
                "INSERT INTO users (\(UserRows.columns)) VALUES (?, ?, ?, ?, ?)",
                UserRows.binds(user)
            )
            return user
        }
    }

    public func user(id: String) async throws(StoreError) -> UserRecord? {
        try await connection.session { db in try Self.user(db, where: "id = ?", Bind.text(id)) }
    }

    public func user(name: String) async throws(StoreError) -> UserRecord? {
        try await connection.session { db in try Self.user(db, where: "name = ?", Bind.text(name)) }
    }

    public func deleteUser(id: String) async throws(StoreError) -> Bool {
        try await connection.session { db in
            // Credentials, flows, web sessions and identity-verification runs go with the user (ON DELETE CASCADE).
            try !db.rows("DELETE FROM users WHERE id = ? RETURNING id", [Bind.text(id)]).isEmpty
        }
    }

    public func users(
        matching query: String?,
        after: String?,
        limit: Int,
        order: UserOrder
    ) async throws(StoreError) -> [UserSummary] {
        guard limit > 0 else { return [] }
        let column = order == .name ? "name" : "id"
        // `id > ?` and `ORDER BY id` compare with the BINARY collation (the bytes), along the primary key's index
        // (names along their unique index).
        // The built-in `lower()` changes ASCII letters only, and `instr` finds the query as it is, so no character
        // of it is a wildcard.
        var sql = """
            SELECT \(UserRows.columns), (
                SELECT count(*) FROM credentials WHERE credentials.user_id = users.id AND credentials.status = 'active'
            ) AS active_credentials
            FROM users WHERE 1
            """
        var binds: [SQLValue] = []
        if let after {
            sql += " AND \(column) > ?"
            binds.append(Bind.text(after))
        }
        if let query, !query.isEmpty {
            let contains = ["id", "name", "display_name"].map { "instr(lower(\($0)), lower(?))" }
            sql += " AND (\(contains.joined(separator: " OR ")))"
            binds += Array(repeating: Bind.text(query), count: contains.count)
        }
        sql += " ORDER BY \(column) LIMIT ?"
        binds.append(Bind.integer(limit))
        return try await connection.session { [sql, binds] db in
            try db.rows(sql, binds).map(UserRows.decodeSummary)
        }
    }

    static func user(
        _ db: Database,
        where condition: String,
        _ bind: SQLValue
    ) throws -> UserRecord? {
        try db.rows("SELECT \(UserRows.columns) FROM users WHERE \(condition)", [bind]).first.map(
            UserRows.decode
        )
    }
}
