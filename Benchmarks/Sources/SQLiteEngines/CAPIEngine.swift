import NIOCore
import NIOPosix

/// The SQLite C API used directly: an actor whose executor is a dedicated NIO event loop (the connection's
/// thread) owns the connection and its statements, each prepared once (`SQLITE_PREPARE_PERSISTENT`) and kept,
/// keyed by its SQL text. `Library`: sqlite-nio's vendored SQLite, or the system's libsqlite3.
actor CAPIEngine<Library: SQLiteLibrary>: Engine {
    private let group: MultiThreadedEventLoopGroup
    private let loop: any EventLoop
    private let connection: CConnection<Library>

    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }

    init(path: String) throws {
        connection = try CConnection(path: path)
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
    }

    func run<T: Sendable>(_ access: Access, _ body: @Sendable (CSession<Library>) throws -> T) async throws -> T {
        try body(CSession(connection: connection))
    }

    nonisolated func close() async throws {
        await closeConnection()
        // Off the loop: its thread stops here.
        try await group.shutdownGracefully()
    }

    private func closeConnection() { connection.close() }
}

struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String { "SQLite error \(code): \(message)" }
}

/// An SQLite connection and its prepared statements; used on one thread at a time.
final class CConnection<Library: SQLiteLibrary> {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    init(path: String) throws {
        let opened = Library.open(path, &handle, SQLiteCode.openFlags)
        guard opened == SQLiteCode.ok else {
            defer { Library.close(handle) }
            throw error(opened)
        }
        try check(Library.busyTimeout(handle, 5000))
        for pragma in ["PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"] {
            try check(Library.exec(handle, pragma))
        }
    }

    /// The statement for `sql`, prepared on first use.
    func statement(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        try check(Library.preparePersistent(handle, sql, &statement))
        guard let statement else { throw SQLiteError(code: SQLiteCode.misuse, message: "no statement in \(sql)") }
        statements[sql] = statement
        return statement
    }

    func check(_ result: Int32) throws {
        guard result == SQLiteCode.ok else { throw error(result) }
    }

    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: handle.map(Library.errorMessage) ?? "")
    }

    func close() {
        for statement in statements.values { Library.finalize(statement) }
        statements = [:]
        Library.close(handle)
        handle = nil
    }

    deinit { if handle != nil { close() } }
}

struct CSession<Library: SQLiteLibrary>: SQLSession {
    let connection: CConnection<Library>

    /// Binds `arguments` to the statement for `sql`, runs `body` with it, then resets it and clears its bindings.
    private func with<T>(_ sql: String, _ arguments: [SQLValue], _ body: (OpaquePointer) throws -> T) throws -> T {
        let statement = try connection.statement(sql)
        defer {
            Library.reset(statement)
            Library.clearBindings(statement)
        }
        for (offset, value) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .null: result = Library.bindNull(statement, index)
            case .integer(let integer): result = Library.bindInt64(statement, index, integer)
            case .real(let real): result = Library.bindDouble(statement, index, real)
            case .text(let text):
                result = text.withCString { Library.bindText(statement, index, $0, Int32(text.utf8.count)) }
            case .blob(let bytes): result = bytes.withUnsafeBytes { Library.bindBlob(statement, index, $0) }
            }
            try connection.check(result)
        }
        return try body(statement)
    }

    private func step(_ statement: OpaquePointer) throws -> Bool {
        switch Library.step(statement) {
        case SQLiteCode.row: return true
        case SQLiteCode.done: return false
        case let code: throw connection.error(code)
        }
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        try with(sql, arguments) { statement in while try step(statement) {} }
    }

    func all<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (CRow<Library>) throws -> T) throws -> [T] {
        try with(sql, arguments) { statement in
            var decoded: [T] = []
            while try step(statement) { decoded.append(try decode(CRow(statement: statement))) }
            return decoded
        }
    }

    func first<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (CRow<Library>) throws -> T) throws -> T? {
        try with(sql, arguments) { statement in try step(statement) ? try decode(CRow(statement: statement)) : nil }
    }

    func immediateTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE", [])
        do {
            let result = try body()
            try execute("COMMIT", [])
            return result
        } catch {
            try? execute("ROLLBACK", [])
            throw error
        }
    }
}

/// The current row of a stepped statement.
struct CRow<Library: SQLiteLibrary>: ColumnReader {
    let statement: OpaquePointer

    /// Whether the column is NULL; throws when it holds another storage class than `type`.
    private func isNull(_ index: Int32, unless type: Int32) throws -> Bool {
        switch Library.columnType(statement, index) {
        case SQLiteCode.null: return true
        case type: return false
        default: throw StoredValueError(column: index)
        }
    }

    func text(_ index: Int32) throws -> String? {
        guard try !isNull(index, unless: SQLiteCode.text), let text = Library.columnText(statement, index) else {
            return nil
        }
        let count = Int(Library.columnBytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func blob(_ index: Int32) throws -> [UInt8]? {
        guard try !isNull(index, unless: SQLiteCode.blob) else { return nil }
        let count = Int(Library.columnBytes(statement, index))
        guard count > 0, let bytes = Library.columnBlob(statement, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    func integer(_ index: Int32) throws -> Int64? {
        try isNull(index, unless: SQLiteCode.integer) ? nil : Library.columnInt64(statement, index)
    }

    func real(_ index: Int32) throws -> Double? {
        try isNull(index, unless: SQLiteCode.float) ? nil : Library.columnDouble(statement, index)
    }
}
