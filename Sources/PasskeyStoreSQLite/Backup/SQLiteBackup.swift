import Foundation
public import PasskeyStorage
import VaporCSQLite

/// Backups of the store's SQLite file, taken while a server uses it, and their restore.
///
/// ```swift
/// let copy = try await SQLiteBackup.backup(databaseAt: "passkeys.sqlite", to: "backups/passkeys-0412.sqlite")
/// let restored = try await SQLiteBackup.restore(backupAt: "backups/passkeys-0412.sqlite", to: "passkeys.sqlite")
/// ```
///
/// A backup is one self-contained file (no `-wal` beside it) holding what was committed when it began, checked
/// before it takes its name. Both write to a temporary file beside the destination and rename it into place, so
/// the destination is either as it was or complete.
public enum SQLiteBackup {
    /// Pages copied per step of SQLite's online backup.
    public static let defaultPagesPerStep: Int32 = 1024

    /// Copies the database at `source` to `destination` with SQLite's online backup, `pagesPerStep` pages at a
    /// time, from one snapshot: a server's writers go on committing meanwhile (in WAL mode they never wait for
    /// it), and the copy holds every transaction committed before the backup began. The copy passes SQLite's
    /// integrity check before it replaces `destination`.
    ///
    /// - Throws: `.notFound` when `source` does not exist; `.corrupt` when the copy fails its check;
    ///   `.unavailable` when a file cannot be read or written (the reason says which).
    public static func backup(
        databaseAt source: String,
        to destination: String,
        pagesPerStep: Int32 = defaultPagesPerStep
    ) async throws(StoreError) -> BackupInspection {
        guard FileManager.default.fileExists(atPath: source) else {
            throw StoreError(.notFound, "There is no database at \(source).")
        }
        try refuseSameFile(source, destination)
        return try await onOwnThread { () throws(StoreError) in
            try copyChecked(from: source, to: destination, pagesPerStep: pagesPerStep) { $0 }
        }
    }

    /// Replaces the database at `database` with the backup at `backup`, after checking the backup (integrity,
    /// the store's schema, a version this build knows). Refuses while another connection has `database` open — a
    /// running server — unless `force` is set: then that server goes on writing to the replaced file, and what it
    /// writes is lost, so stop it first. A `-wal` or `-shm` file beside `database` goes with the old file.
    ///
    /// - Throws: `.notFound` when `backup` does not exist; `.corrupt` or `.newerSchema` when it fails its check
    ///   (`database` is then untouched); `.inUse` when a process has `database` open.
    public static func restore(
        backupAt backup: String,
        to database: String,
        force: Bool = false
    ) async throws(StoreError) -> BackupInspection {
        guard FileManager.default.fileExists(atPath: backup) else {
            throw StoreError(.notFound, "There is no backup at \(backup).")
        }
        try refuseSameFile(backup, database)
        return try await onOwnThread { () throws(StoreError) in
            try copyChecked(from: backup, to: database, pagesPerStep: defaultPagesPerStep) {
                inspection throws(StoreError) in
                if !force, try DatabaseLock.isHeld(on: database) {
                    throw StoreError(
                        .inUse,
                        "A process has \(database) open (a running server?): stop it and restore again, or pass "
                            + "--force to replace the file anyway (what that process writes afterwards is lost)."
                    )
                }
                for companion in ["-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: database + companion)
                }
                return inspection
            }
        }
    }

    /// Copies `source` into a temporary file beside `destination`, leaves it a single file, checks it, lets
    /// `beforeRename` decide, and renames it to `destination`; the temporary file never outlives a failure.
    private static func copyChecked(
        from source: String,
        to destination: String,
        pagesPerStep: Int32,
        beforeRename: (BackupInspection) throws(StoreError) -> BackupInspection
    ) throws(StoreError) -> BackupInspection {
        let temporary = destination + ".partial-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let inspection: BackupInspection
        do {
            let from = try Database(path: source, flags: SQLITE_OPEN_READONLY)
            defer { from.close() }
            let to = try Database(path: temporary)
            defer { to.close() }
            _ = try from.copy(to: to, pagesPerStep: pagesPerStep)
            // One file: the copy leaves write-ahead logging (the store turns it back on when it opens the file).
            try to.execute("PRAGMA journal_mode = DELETE")
            inspection = try BackupInspection.inspect(to, path: source)
        } catch let failure as SQLiteFailure {
            throw StoreErrors.map(failure, path: source, doing: "copy")
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.unavailable, "Copying \(source) failed: \(error).")
        }
        let result = try beforeRename(inspection)
        try FileDurability.sync(temporary)
        guard rename(temporary, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            throw StoreError(.unavailable, "Could not move the copy to \(destination): \(reason).")
        }
        try FileDurability.sync(directoryOf: destination)
        return result
    }

    private static func refuseSameFile(_ source: String, _ destination: String) throws(StoreError) {
        let a = URL(fileURLWithPath: source).standardizedFileURL.resolvingSymlinksInPath().path
        let b = URL(fileURLWithPath: destination).standardizedFileURL.resolvingSymlinksInPath().path
        guard a != b else {
            throw StoreError(.unavailable, "\(source) and \(destination) are the same file: name another.")
        }
    }

    /// Runs blocking file work on a thread of its own, off the caller's executor.
    private static func onOwnThread<T: Sendable>(
        _ work: @escaping @Sendable () throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        let result = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Result { () throws(StoreError) in try work() }) }.start()
        }
        return try result.get()
    }
}
