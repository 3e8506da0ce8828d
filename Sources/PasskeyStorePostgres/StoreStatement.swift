import PasskeyStorage
import PostgresNIO

/// A statement that each pooled connection has PostgreSQL parse and plan once, on its first use, and then runs
/// with new values only: the statements of a sign-in and a registration. Its rows are read by the records' own
/// initialisers, as those of any other query.
protocol StoreStatement: PostgresPreparedStatement where Row == PostgresRow {}

extension StoreStatement {
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

extension PostgresConnection {
    /// Runs a prepared statement in this connection's transaction and returns its rows.
    @discardableResult
    func rows(_ statement: some StoreStatement) async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for try await row in try await execute(statement, logger: logger) { rows.append(row) }
        return rows
    }
}

extension PostgresPasskeyStore {
    /// Runs one prepared statement on a pooled connection and returns its rows.
    func rows(
        _ statement: some StoreStatement,
        doing operation: @autoclosure () -> String
    ) async throws(StoreError) -> [PostgresRow] {
        try await rows(doing: operation()) { connection in try await connection.rows(statement) }
    }
}
