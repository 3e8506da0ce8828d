import Foundation
public import PasskeyStorage

/// The embedded default store: one SQLite database file, in write-ahead-log mode, with foreign keys on.
///
/// ```swift
/// let store = try await SQLitePasskeyStore.open(path: "/var/lib/passkeys/passkeys.sqlite")
/// // … serve requests …
/// await store.close()  // in the process's shutdown sequence
/// ```
///
/// Opening applies the schema's pending migrations (see ``schemaVersion``), and refuses a file that a newer
/// version of the code migrated. The process must call ``close()`` on shutdown: it waits for the operation in
/// progress, then closes the file, so the last transaction is on disk and the `-wal` file is folded back.
///
/// Every operation runs on the store's one connection, on its own thread, with all its statements (prepared once
/// and kept), inside a `BEGIN IMMEDIATE` transaction that the operations queued meanwhile share, each in a
/// savepoint of its own (see `ConnectionThread`). Every operation so holds SQLite's write lock before it reads, and
/// racing callers are serialised whether they share this store, use two stores on the same file, or run in two
/// processes (then a writer waits up to the busy timeout for the other's transaction). The file must be on a local
/// file system: SQLite's locks do not work reliably on network shares.
public final class SQLitePasskeyStore: PasskeyStore, Sendable {
    /// The schema version this code creates and understands.
    public static var schemaVersion: Int { Migrations.all.last?.version ?? 0 }
    /// When a committed transaction reaches the disk (SQLite's `synchronous` setting, in WAL mode).
    public enum Durability: Sendable, Hashable {
        /// Commits are written to the write-ahead log and synced to the disk only at checkpoints
        /// (`synchronous = NORMAL`, which SQLite suggests for most applications in WAL mode). A crash of the
        /// process loses nothing; a power failure or an operating-system crash may roll back the transactions
        /// committed since the last checkpoint, leaving the database consistent. Each commit costs no `fsync`,
        /// which is what lets one connection commit thousands of times a second.
        case checkpoint
        /// Every commit is synced to the disk before it returns (`synchronous = FULL`): nothing committed is lost
        /// on a power failure, and each commit waits for an `fsync` (milliseconds on many disks) while holding
        /// the store's only connection, so the store commits a few hundred times a second at most.
        case everyCommit

        var synchronous: String {
            switch self {
            case .checkpoint: "NORMAL"
            case .everyCommit: "FULL"
            }
        }
    }

    /// The oldest SQLite library the store works with: 3.37 brings STRICT tables (3.35, `RETURNING`).
    static let minimumLibraryVersion: Int32 = 3_037_000

    /// The database file.
    public let path: String
    /// The versions of the migrations that opening the file applied, oldest first: empty when it was up to date.
    public let migrationsApplied: [Int]
    let connection: ConnectionThread

    private init(path: String, connection: ConnectionThread, migrationsApplied: [Int]) {
        self.path = path
        self.connection = connection
        self.migrationsApplied = migrationsApplied
    }

    /// Opens the database file at `path`, creating it when it does not exist (its directory must), and migrates
    /// it to ``schemaVersion``.
    ///
    /// - Parameters:
    ///   - path: The database file. SQLite also creates `<path>-wal` and `<path>-shm` beside it, so the process
    ///     needs write access to the directory.
    ///   - busyTimeout: How long an operation waits for another connection's write transaction before it fails
    ///     with `.unavailable`.
    ///   - durability: When commits reach the disk: at checkpoints (the default), or on every commit.
    /// - Throws: `.unavailable` when the file cannot be opened or written (the reason says what to check), or when
    ///   a newer version of the code migrated it; `.corrupt` when it is not an SQLite database.
    public static func open(
        path: String,
        busyTimeout: Duration = .seconds(5),
        durability: Durability = .checkpoint
    ) async throws(StoreError) -> SQLitePasskeyStore {
        try await open(path: path, busyTimeout: busyTimeout, durability: durability, migrations: Migrations.all)
    }

    static func open(
        path: String,
        busyTimeout: Duration,
        durability: Durability = .checkpoint,
        migrations: [Migration],
        maximumWaiting: Int = ConnectionThread.defaultMaximumWaiting,
        waitTimeout: Duration = ConnectionThread.defaultWaitTimeout
    ) async throws(StoreError) -> SQLitePasskeyStore {
        guard !path.isEmpty, path != ":memory:" else {
            throw StoreError(.unavailable, "The SQLite store needs the path of a database file, not '\(path)'.")
        }
        guard Database.libraryVersion >= minimumLibraryVersion else {
            throw StoreError(
                .unavailable,
                "SQLite \(Database.libraryVersionString) is too old for the store: it needs 3.37 or later."
            )
        }
        let connection = try await ConnectionThread.open(
            path: path,
            busyTimeout: busyTimeout,
            durability: durability,
            maximumWaiting: maximumWaiting,
            waitTimeout: waitTimeout
        )
        do {
            let applied = try await Migrator(path: path, migrations: migrations).migrate(connection)
            return SQLitePasskeyStore(path: path, connection: connection, migrationsApplied: applied)
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Waits for the operation in progress and closes the database. Call it when the process shuts down.
    /// Operations after it fail with `.unavailable`; closing again does nothing.
    public func close() async {
        await connection.close()
    }
}
