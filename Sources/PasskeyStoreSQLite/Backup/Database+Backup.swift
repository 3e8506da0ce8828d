import VaporCSQLite

extension Database {
    /// How many times a step may find a database locked (10 ms apart) before the copy gives up.
    static let maximumBusySteps = 500

    /// Copies this database into `destination` with SQLite's online backup, `pagesPerStep` pages at a time.
    ///
    /// The copy is of one snapshot: the read transaction opened first stays open until the last page is copied, so
    /// in WAL mode the writers of other connections (the server's) go on committing meanwhile, never blocked, and
    /// the copy holds exactly what was committed when it began. Returns the number of pages copied.
    func copy(to destination: Database, pagesPerStep: Int32) throws(SQLiteFailure) -> Int32 {
        guard let handle, let target = destination.handle else {
            throw SQLiteFailure(code: SQLITE_MISUSE, message: "the connection is closed")
        }
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        // A read transaction starts with the first read: this one fixes the snapshot the steps copy.
        try execute("SELECT count(*) FROM sqlite_schema")
        guard let backup = sqlite_nio_sqlite3_backup_init(target, "main", handle, "main") else {
            throw Self.failure(sqlite_nio_sqlite3_errcode(target), on: target)
        }
        var code = SQLITE_OK
        var busySteps = 0
        while code == SQLITE_OK || (code == SQLITE_BUSY || code == SQLITE_LOCKED) && busySteps < Self.maximumBusySteps {
            if code != SQLITE_OK {
                busySteps += 1
                sqlite_nio_sqlite3_sleep(10)
            }
            code = sqlite_nio_sqlite3_backup_step(backup, max(pagesPerStep, 1))
        }
        let pages = sqlite_nio_sqlite3_backup_pagecount(backup)
        let finished = sqlite_nio_sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finished == SQLITE_OK else {
            throw Self.failure(code == SQLITE_DONE ? finished : code, on: target)
        }
        return pages
    }
}
