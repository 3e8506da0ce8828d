import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: UserStore {
    public func createUserIfAbsent(_ user: UserRecord) async throws(StoreError) -> UserRecord {
        // Inserting and, when the id is taken, reading the existing record: a user deleted in between makes the
        // read come back empty, and the insert is tried again.
        for _ in 0..<3 {
            let inserted = try await rows(InsertUser(user: user), doing: "create the user")
            if let row = inserted.first { return try UserRecord(row) }
            if let existing = try await self.user(id: user.id) { return existing }
        }
        throw StoreError(
            .unavailable,
            "Could not create the user: it was deleted and created again concurrently. Retrying may help."
        )
    }

    public func user(id: String) async throws(StoreError) -> UserRecord? {
        try await rows(ReadUser(id: id), doing: "read the user").first.map { row throws(StoreError) in
            try UserRecord(row)
        }
    }

    public func user(name: String) async throws(StoreError) -> UserRecord? {
        try await rows(
            "SELECT \(unescaped: Columns.list(Columns.user)) FROM users WHERE name = \(name)",
            doing: "read the user"
        )
        .first.map { row throws(StoreError) in try UserRecord(row) }
    }

    public func deleteUser(id: String) async throws(StoreError) -> Bool {
        // One statement: the user's credentials, web sessions and identity-verification runs go by the foreign keys'
        // cascade, their flows by the second CTE, which runs only when the user existed.
        let result = try await rows(
            """
            WITH deleted_user AS (DELETE FROM users WHERE id = \(id) RETURNING id),
                 deleted_flows AS (DELETE FROM flows WHERE user_id IN (SELECT id FROM deleted_user))
            SELECT count(*) AS deleted FROM deleted_user
            """,
            doing: "delete the user"
        )
        guard let row = result.first else { return false }
        return try RowReader(row, record: "deletion count")("deleted", as: Int64.self) > 0
    }
}

extension PostgresPasskeyStore {
    public func users(
        matching query: String?,
        after: String?,
        limit: Int,
        order: UserOrder
    ) async throws(StoreError) -> [UserSummary] {
        guard limit > 0 else { return [] }
        let query = query.flatMap { $0.isEmpty ? nil : $0 }
        let column = order == .name ? "name" : "id"
        // Ids compare in the "C" collation, byte by byte, whatever the database's locale (the index
        // users_id_bytewise serves that order). In that collation `lower()` changes ASCII letters only, and
        // `strpos` finds the query as it is, so no character of it is a wildcard.
        var summaries: [UserSummary] = []
        for row in try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.user)), (
                SELECT count(*) FROM credentials WHERE credentials.user_id = users.id AND credentials.status = 'active'
            ) AS active_credentials
            FROM users
            WHERE (\(after)::text IS NULL OR \(unescaped: column) COLLATE "C" > \(after)::text)
            AND (\(query)::text IS NULL
                OR strpos(lower(id COLLATE "C"), lower(\(query)::text COLLATE "C")) > 0
                OR strpos(lower(name COLLATE "C"), lower(\(query)::text COLLATE "C")) > 0
                OR strpos(lower(display_name COLLATE "C"), lower(\(query)::text COLLATE "C")) > 0)
            ORDER BY \(unescaped: column) COLLATE "C"
            LIMIT \(Int64(limit))
            """,
            doing: "list the users"
        ) {
            summaries.append(try UserSummary(row))
        }
        return summaries
    }
}

/// The `INSERT` of a new user; no row when the id is taken.
struct InsertUser: StoreStatement {
    static let sql = """
        INSERT INTO users (\(Columns.list(Columns.user))) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (id) DO NOTHING
        RETURNING \(Columns.list(Columns.user))
        """
    let user: UserRecord

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 5)
        binds.append(user.id)
        binds.append(user.handle.bytea)
        binds.append(user.name)
        binds.append(user.displayName)
        binds.append(user.createdAt)
        return binds
    }
}

struct ReadUser: StoreStatement {
    static let sql = "SELECT \(Columns.list(Columns.user)) FROM users WHERE id = $1"
    let id: String

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(id)
        return binds
    }
}
