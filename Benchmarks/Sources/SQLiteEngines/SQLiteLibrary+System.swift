import GRDBSQLite

/// The system's libsqlite3, which GRDB links on Linux (module GRDBSQLite).
enum SystemSQLite: SQLiteLibrary {
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    static func open(_ path: String, _ handle: inout OpaquePointer?, _ flags: Int32) -> Int32 {
        sqlite3_open_v2(path, &handle, flags, nil)
    }
    static func close(_ handle: OpaquePointer?) { sqlite3_close_v2(handle) }
    static func busyTimeout(_ handle: OpaquePointer?, _ milliseconds: Int32) -> Int32 {
        sqlite3_busy_timeout(handle, milliseconds)
    }
    static func exec(_ handle: OpaquePointer?, _ sql: String) -> Int32 {
        sqlite3_exec(handle, sql, nil, nil, nil)
    }
    static func errorMessage(_ handle: OpaquePointer) -> String { String(cString: sqlite3_errmsg(handle)) }
    static func preparePersistent(_ handle: OpaquePointer?, _ sql: String, _ statement: inout OpaquePointer?) -> Int32 {
        sqlite3_prepare_v3(handle, sql, -1, SQLiteCode.preparePersistent, &statement, nil)
    }
    static func finalize(_ statement: OpaquePointer) { sqlite3_finalize(statement) }
    static func reset(_ statement: OpaquePointer) { sqlite3_reset(statement) }
    static func clearBindings(_ statement: OpaquePointer) { sqlite3_clear_bindings(statement) }
    static func step(_ statement: OpaquePointer) -> Int32 { sqlite3_step(statement) }
    static func bindNull(_ statement: OpaquePointer, _ index: Int32) -> Int32 {
        sqlite3_bind_null(statement, index)
    }
    static func bindInt64(_ statement: OpaquePointer, _ index: Int32, _ value: Int64) -> Int32 {
        sqlite3_bind_int64(statement, index, value)
    }
    static func bindDouble(_ statement: OpaquePointer, _ index: Int32, _ value: Double) -> Int32 {
        sqlite3_bind_double(statement, index, value)
    }
    static func bindText(
        _ statement: OpaquePointer,
        _ index: Int32,
        _ text: UnsafePointer<CChar>,
        _ count: Int32
    )
        -> Int32
    { sqlite3_bind_text(statement, index, text, count, transient) }
    static func bindBlob(_ statement: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        bytes.isEmpty
            ? sqlite3_bind_zeroblob(statement, index, 0)
            : sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), transient)
    }
    static func columnType(_ statement: OpaquePointer, _ index: Int32) -> Int32 {
        sqlite3_column_type(statement, index)
    }
    static func columnText(_ statement: OpaquePointer, _ index: Int32) -> UnsafePointer<UInt8>? {
        sqlite3_column_text(statement, index)
    }
    static func columnBlob(_ statement: OpaquePointer, _ index: Int32) -> UnsafeRawPointer? {
        sqlite3_column_blob(statement, index)
    }
    static func columnBytes(_ statement: OpaquePointer, _ index: Int32) -> Int32 {
        sqlite3_column_bytes(statement, index)
    }
    static func columnInt64(_ statement: OpaquePointer, _ index: Int32) -> Int64 {
        sqlite3_column_int64(statement, index)
    }
    static func columnDouble(_ statement: OpaquePointer, _ index: Int32) -> Double {
        sqlite3_column_double(statement, index)
    }
}
