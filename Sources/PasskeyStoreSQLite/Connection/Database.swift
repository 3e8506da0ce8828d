import VaporCSQLite

/// The store's SQLite connection: synchronous calls, made only on the connection's own thread (see
/// ``ConnectionThread``, which also opens and ends its transactions), with every statement prepared once and kept
/// for the life of the connection.
final class Database {
    private(set) var handle: OpaquePointer?
    /// Prepared statements by their SQL text. Statements built from a variable list (`IN (?, ?, …)`) have a few
    /// shapes each; past ``maximumCachedStatements`` the cache is emptied rather than grown.
    private var statements: [String: Statement] = [:]
    static let maximumCachedStatements = 512

    /// Opens the database file at `path`, with extended result codes; by default for writing, creating it when
    /// missing.
    init(path: String, flags: Int32 = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) throws(SQLiteFailure) {
        var handle: OpaquePointer?
        // No mutexes: the connection is used by one thread at a time, its own.
        let flags = flags | SQLITE_OPEN_NOMUTEX
        let code = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let failure =
                handle.map { Self.failure(code, on: $0) } ?? SQLiteFailure(code: code, message: "out of memory")
            sqlite_nio_sqlite3_close_v2(handle)
            throw failure
        }
        sqlite_nio_sqlite3_extended_result_codes(handle, 1)
        self.handle = handle
    }

    deinit {
        close()
    }

    /// Finalizes the statements and closes the connection; later calls fail with SQLITE_MISUSE.
    func close() {
        statements.removeAll()
        sqlite_nio_sqlite3_close_v2(handle)
        handle = nil
    }

    /// Sets how long a statement waits for another connection's lock before it fails with SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite_nio_sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Runs one statement with `binds` for its `?` parameters, in order, and returns its rows.
    @discardableResult
    func rows(_ sql: String, _ binds: [SQLValue] = []) throws(SQLiteFailure) -> [Row] {
        try statement(sql).run(binds)
    }

    /// Runs one statement that returns no rows the caller needs.
    func execute(_ sql: String, _ binds: [SQLValue] = []) throws(SQLiteFailure) {
        _ = try statement(sql).run(binds)
    }

    /// How many times SQLite prepared the cached statements again (``Statement/reprepares``), in all.
    var reprepares: Int { statements.values.reduce(0) { $0 + Int($1.reprepares) } }

    private func statement(_ sql: String) throws(SQLiteFailure) -> Statement {
        if let statement = statements[sql] { return statement }
        guard let handle else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the connection is closed") }
        let statement = try Statement(sql, on: handle)
        if statements.count >= Self.maximumCachedStatements { statements.removeAll() }
        statements[sql] = statement
        return statement
    }

    /// The failure `code` with the connection's message for it.
    static func failure(_ code: Int32, on handle: OpaquePointer) -> SQLiteFailure {
        SQLiteFailure(code: code, message: String(cString: sqlite_nio_sqlite3_errmsg(handle)))
    }

    /// The SQLite library's version as a number (3.37.0 is 3037000).
    static var libraryVersion: Int32 { sqlite_nio_sqlite3_libversion_number() }
    static var libraryVersionString: String { String(cString: sqlite_nio_sqlite3_libversion()) }
}
