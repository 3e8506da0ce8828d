/// An error SQLite returned: its extended result code and message, before ``StoreErrors`` maps it to a
/// `StoreError`.
struct SQLiteFailure: Error, CustomStringConvertible {
    /// SQLite's extended result code; the primary code is its low byte.
    let code: Int32
    let message: String

    var primaryCode: Int32 { code & 0xff }
    var description: String { "\(message) (SQLite result code \(code))" }
}
