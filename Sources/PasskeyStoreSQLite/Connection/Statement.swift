import VaporCSQLite

/// A prepared statement, kept by its ``Database`` for the life of the connection and run again with new values.
final class Statement {
    private let handle: OpaquePointer
    private let database: OpaquePointer
    let columns: ColumnNames
    /// How many `?` parameters the statement has.
    private let parameterCount: Int32

    /// Prepares `sql` (one statement) on `database`.
    init(_ sql: String, on database: OpaquePointer) throws(SQLiteFailure) {
        var handle: OpaquePointer?
        let code = sqlite_nio_sqlite3_prepare_v3(
            database,
            sql,
            -1,
            UInt32(SQLITE_PREPARE_PERSISTENT),
            &handle,
            nil
        )
        guard code == SQLITE_OK, let handle else {
            sqlite_nio_sqlite3_finalize(handle)
            throw Database.failure(code, on: database)
        }
        self.handle = handle
        self.database = database
        parameterCount = sqlite_nio_sqlite3_bind_parameter_count(handle)
        columns = ColumnNames(
            (0..<sqlite_nio_sqlite3_column_count(handle)).map {
                String(cString: sqlite_nio_sqlite3_column_name(handle, $0))
            }
        )
    }

    deinit {
        sqlite_nio_sqlite3_finalize(handle)
    }

    /// Binds `values` to the statement's parameters in order (NULL to any after them), runs it to its end and returns
    /// its rows; the statement is reset afterwards, whatever happened, so it can run again.
    ///
    /// The values stay bound until the next run replaces them: `sqlite3_clear_bindings` would expire a statement
    /// whose plan SQLite marked as depending on a parameter's value (one with an `ORDER BY` and a `column = ?` the
    /// index it uses starts with, for one), and make every run of it prepare it again.
    func run(_ values: [SQLValue]) throws(SQLiteFailure) -> [Row] {
        defer { sqlite_nio_sqlite3_reset(handle) }
        for (offset, value) in values.enumerated() {
            let code = bind(value, at: Int32(offset + 1))
            guard code == SQLITE_OK else { throw Database.failure(code, on: database) }
        }
        for index in stride(from: Int32(values.count) + 1, through: parameterCount, by: 1) {
            let code = bind(.null, at: index)
            guard code == SQLITE_OK else { throw Database.failure(code, on: database) }
        }
        var rows: [Row] = []
        while true {
            let code = sqlite_nio_sqlite3_step(handle)
            switch code {
            case SQLITE_ROW: rows.append(Row(columns: columns, values: currentValues()))
            case SQLITE_DONE: return rows
            default: throw Database.failure(code, on: database)
            }
        }
    }

    private func bind(_ value: SQLValue, at index: Int32) -> Int32 {
        switch value {
        case .null: return sqlite_nio_sqlite3_bind_null(handle, index)
        case .integer(let integer): return sqlite_nio_sqlite3_bind_int64(handle, index, integer)
        case .real(let real): return sqlite_nio_sqlite3_bind_double(handle, index, real)
        case .text(let text):
            // Swift passes a NUL-terminated copy; the length excludes the terminator.
            return sqlite_nio_sqlite3_bind_text64(
                handle,
                index,
                text,
                UInt64(text.utf8.count),
                Statement.transient,
                UInt8(SQLITE_UTF8)
            )
        case .blob(let bytes):
            return bytes.withUnsafeBytes { buffer in
                // A zero-length blob, not NULL, when the array is empty.
                sqlite_nio_sqlite3_bind_blob64(
                    handle,
                    index,
                    buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                    UInt64(buffer.count),
                    Statement.transient
                )
            }
        }
    }

    private func currentValues() -> [SQLValue] {
        (0..<Int32(columns.count)).map { column in
            switch sqlite_nio_sqlite3_column_type(handle, column) {
            case SQLITE_INTEGER: return .integer(sqlite_nio_sqlite3_column_int64(handle, column))
            case SQLITE_FLOAT: return .real(sqlite_nio_sqlite3_column_double(handle, column))
            case SQLITE_TEXT:
                let count = Int(sqlite_nio_sqlite3_column_bytes(handle, column))
                guard let text = sqlite_nio_sqlite3_column_text(handle, column) else { return .text("") }
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            case SQLITE_BLOB:
                let count = Int(sqlite_nio_sqlite3_column_bytes(handle, column))
                guard count > 0, let blob = sqlite_nio_sqlite3_column_blob(handle, column) else { return .blob([]) }
                return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
            default: return .null
            }
        }
    }

    /// How many times SQLite prepared the statement again since it was made (a schema change, or a new value of a
    /// parameter its plan depends on).
    var reprepares: Int32 { sqlite_nio_sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0) }

    /// SQLite copies bound text and blobs before the bind call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
