import PasskeyStorage
import VaporCSQLite

/// Whether another connection has a database file open, asked through SQLite's own locks (which work across
/// processes and between connections of one process).
enum DatabaseLock {
    /// True when an exclusive lock on the file cannot be had at once: another connection has it open in WAL mode
    /// (a server), or is in a transaction on it. A file that is missing or not a database is held by no one.
    static func isHeld(on path: String) throws(StoreError) -> Bool {
        let database: Database
        do {
            database = try Database(path: path, flags: SQLITE_OPEN_READWRITE)
        } catch {
            return false
        }
        defer { database.close() }
        database.setBusyTimeout(milliseconds: 0)
        do {
            try database.execute("PRAGMA locking_mode = EXCLUSIVE")
            try database.execute("BEGIN EXCLUSIVE")
            try database.execute("ROLLBACK")
            return false
        } catch {
            return error.primaryCode == SQLITE_BUSY || error.primaryCode == SQLITE_LOCKED
        }
    }
}
