/// The few SQLite C functions the C-API engine calls, so that it runs on either library: sqlite-nio's vendored
/// SQLite (functions prefixed `sqlite_nio_`) or the system's libsqlite3 (the one GRDB links on Linux).
protocol SQLiteLibrary {
    static func open(_ path: String, _ handle: inout OpaquePointer?, _ flags: Int32) -> Int32
    static func close(_ handle: OpaquePointer?)
    static func busyTimeout(_ handle: OpaquePointer?, _ milliseconds: Int32) -> Int32
    static func exec(_ handle: OpaquePointer?, _ sql: String) -> Int32
    static func errorMessage(_ handle: OpaquePointer) -> String
    static func preparePersistent(_ handle: OpaquePointer?, _ sql: String, _ statement: inout OpaquePointer?) -> Int32
    static func finalize(_ statement: OpaquePointer)
    static func reset(_ statement: OpaquePointer)
    static func clearBindings(_ statement: OpaquePointer)
    static func step(_ statement: OpaquePointer) -> Int32
    static func bindNull(_ statement: OpaquePointer, _ index: Int32) -> Int32
    static func bindInt64(_ statement: OpaquePointer, _ index: Int32, _ value: Int64) -> Int32
    static func bindDouble(_ statement: OpaquePointer, _ index: Int32, _ value: Double) -> Int32
    /// Binds a copy of the UTF-8 text.
    static func bindText(
        _ statement: OpaquePointer,
        _ index: Int32,
        _ text: UnsafePointer<CChar>,
        _ count: Int32
    )
        -> Int32
    /// Binds a copy of the bytes.
    static func bindBlob(_ statement: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32
    static func columnType(_ statement: OpaquePointer, _ index: Int32) -> Int32
    static func columnText(_ statement: OpaquePointer, _ index: Int32) -> UnsafePointer<UInt8>?
    static func columnBlob(_ statement: OpaquePointer, _ index: Int32) -> UnsafeRawPointer?
    static func columnBytes(_ statement: OpaquePointer, _ index: Int32) -> Int32
    static func columnInt64(_ statement: OpaquePointer, _ index: Int32) -> Int64
    static func columnDouble(_ statement: OpaquePointer, _ index: Int32) -> Double
}

/// SQLite's result codes, storage classes and open flags (the same numbers in every build).
enum SQLiteCode {
    static let ok: Int32 = 0
    static let misuse: Int32 = 21
    static let row: Int32 = 100
    static let done: Int32 = 101
    static let integer: Int32 = 1
    static let float: Int32 = 2
    static let text: Int32 = 3
    static let blob: Int32 = 4
    static let null: Int32 = 5
    /// READWRITE | CREATE | NOMUTEX (the connection is used by one thread at a time) | EXRESCODE.
    static let openFlags: Int32 = 0x0000_0002 | 0x0000_0004 | 0x0000_8000 | 0x0200_0000
    static let preparePersistent: UInt32 = 0x01
}
