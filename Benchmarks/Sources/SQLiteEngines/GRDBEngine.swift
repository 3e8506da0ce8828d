import Foundation
import GRDB

/// GRDB: one `DatabaseQueue`, whose serial queue is the connection's thread; statements from
/// `Database.cachedStatement(sql:)`, rows read in place through a cursor (no copy).
///
/// `idiomatic`: reads in `read {}` (a deferred transaction with `PRAGMA query_only` around it) and writes in
/// `write {}` (a `BEGIN IMMEDIATE` transaction), as GRDB's documentation shows; otherwise every operation runs in
/// `writeWithoutTransaction {}` with the adapter's own transactions, so the statements are the same as the C API's.
struct GRDBEngine: Engine {
    let queue: DatabaseQueue
    let idiomatic: Bool

    init(path: String, idiomatic: Bool) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        self.idiomatic = idiomatic
    }

    func run<T: Sendable>(_ access: Access, _ body: @Sendable (GRDBSession) throws -> T) async throws -> T {
        switch (idiomatic, access) {
        case (true, .read): try await queue.read { try body(GRDBSession(db: $0)) }
        case (true, .write): try await queue.write { try body(GRDBSession(db: $0)) }
        case (false, _): try await queue.writeWithoutTransaction { try body(GRDBSession(db: $0)) }
        }
    }

    func close() async throws {
        try queue.close()
    }
}

struct GRDBSession: SQLSession {
    let db: Database

    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(arguments))
    }

    func all<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (Row) throws -> T) throws -> [T] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
        var decoded: [T] = []
        while let row = try rows.next() { decoded.append(try decode(row)) }
        return decoded
    }

    func first<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (Row) throws -> T) throws -> T? {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
        return try rows.next().map(decode)
    }

    func immediateTransaction<T>(_ body: () throws -> T) throws -> T {
        // Inside `write {}` the operation is in a transaction already.
        guard !db.isInsideTransaction else { return try body() }
        var result: T?
        try db.inTransaction(.immediate) {
            result = try body()
            return .commit
        }
        return result!
    }
}

extension StatementArguments {
    init(_ values: [SQLValue]) {
        self.init(
            values.map { value -> DatabaseValue in
                switch value {
                case .null: .null
                case .integer(let integer): integer.databaseValue
                case .real(let real): real.databaseValue
                case .text(let text): text.databaseValue
                case .blob(let bytes): Data(bytes).databaseValue
                }
            }
        )
    }
}

extension Row: ColumnReader {
    func text(_ index: Int32) throws -> String? { try decode(String?.self, atIndex: Int(index)) }
    func blob(_ index: Int32) throws -> [UInt8]? { try withUnsafeData(atIndex: Int(index)) { $0.map { Array($0) } } }
    func integer(_ index: Int32) throws -> Int64? { try decode(Int64?.self, atIndex: Int(index)) }
    func real(_ index: Int32) throws -> Double? { try decode(Double?.self, atIndex: Int(index)) }
}
