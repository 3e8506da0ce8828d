/// A value bound to a statement or read from a row: SQLite's five storage classes.
enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The storage class's name, for messages about a value of the wrong kind.
    var kind: String {
        switch self {
        case .null: "null"
        case .integer: "an integer"
        case .real: "a real number"
        case .text: "text"
        case .blob: "bytes"
        }
    }
}

/// One row of a result: its values in column order, and the statement's column names.
struct Row: Sendable {
    let columns: ColumnNames
    let values: [SQLValue]

    /// The value of the column named `name`; nil when the statement has no such column.
    func column(_ name: String) -> SQLValue? {
        columns.index[name].map { values[$0] }
    }
}

/// A statement's column names, shared by all the rows it returns.
final class ColumnNames: Sendable {
    let index: [String: Int]
    let count: Int

    init(_ names: [String]) {
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
        self.index = index
        count = names.count
    }
}
