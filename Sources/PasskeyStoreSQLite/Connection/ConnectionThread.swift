import NIOCore
import NIOPosix
import PasskeyStorage
import Synchronization

/// The store's one SQLite connection, on a thread of its own, lent to one store operation at a time.
///
/// A store operation runs as one unit on the connection's thread: all its statements, and its transaction, in one
/// synchronous closure given to ``session(_:)`` or ``transaction(_:)`` — one trip from the caller to that thread
/// and one back, however many statements it runs. The thread is an event loop of its own, used as this actor's
/// executor, so the closures of concurrent operations run one after the other, and a statement that waits for
/// another process's lock (up to the busy timeout) blocks no other work of the process.
///
/// The line of waiting operations is bounded: at most ``maximumWaiting`` wait at once (beyond that an operation
/// fails at once with `.unavailable`, which the server answers with 503 and `Retry-After`), and an operation whose
/// turn comes after it waited ``waitTimeout`` fails the same way without running. So no caller waits much longer
/// than the timeout plus the one operation in progress.
actor ConnectionThread {
    let path: String
    private var database: Database?
    private let loop: any EventLoop
    private let group: MultiThreadedEventLoopGroup
    /// Operations waiting for the connection or running on it.
    private let pending = Atomic<Int>(0)
    /// The most operations that may wait for the connection at once.
    nonisolated let maximumWaiting: Int
    /// The longest an operation waits for its turn.
    nonisolated let waitTimeout: Duration

    static let defaultMaximumWaiting = 1024
    static let defaultWaitTimeout = Duration.seconds(15)

    /// How many operations wait for the connection or run on it now.
    nonisolated var operations: Int { pending.load(ordering: .relaxed) }

    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }

    private init(path: String, maximumWaiting: Int, waitTimeout: Duration) {
        self.path = path
        self.maximumWaiting = maximumWaiting
        self.waitTimeout = waitTimeout
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
    }

    /// Opens the file at `path` on a thread of its own and applies the connection settings: the busy timeout,
    /// foreign keys, WAL, and when commits reach the disk.
    static func open(
        path: String,
        busyTimeout: Duration,
        durability: SQLitePasskeyStore.Durability,
        maximumWaiting: Int = defaultMaximumWaiting,
        waitTimeout: Duration = defaultWaitTimeout
    ) async throws(StoreError) -> ConnectionThread {
        let connection = ConnectionThread(path: path, maximumWaiting: maximumWaiting, waitTimeout: waitTimeout)
        do {
            try await connection.connect(busyTimeout: busyTimeout, durability: durability)
        } catch {
            await connection.close()
            throw error
        }
        return connection
    }

    private func connect(busyTimeout: Duration, durability: SQLitePasskeyStore.Durability) throws(StoreError) {
        do {
            let database = try Database(path: path)
            self.database = database
            // First, so that no statement below fails at once on a lock held by another process.
            database.setBusyTimeout(milliseconds: Self.milliseconds(busyTimeout))
            try database.execute("PRAGMA foreign_keys = ON")
            let mode = try database.rows("PRAGMA journal_mode = WAL").first?.column("journal_mode")
            guard case .text(let journal) = mode, journal.lowercased() == "wal" else {
                throw StoreError(
                    .unavailable,
                    "The SQLite database at \(path) could not use write-ahead logging (journal mode \(mode.map { "\($0)" } ?? "unknown")). "
                        + "Keep it on a local file system, not a network share."
                )
            }
            try database.execute("PRAGMA synchronous = \(durability.synchronous)")
        } catch {
            throw StoreErrors.map(error, path: path, doing: "open")
        }
    }

    /// SQLite's busy timeout is a 32-bit count of milliseconds.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        guard seconds < Int64(Int32.max) / 1000 else { return Int32.max }
        return Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// Runs `body` with the connection, on its thread, when the operations before it are done.
    nonisolated func session<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(StoreError) -> T {
        guard pending.add(1, ordering: .relaxed).newValue <= maximumWaiting + 1 else {
            pending.subtract(1, ordering: .relaxed)
            throw StoreError(
                .unavailable,
                "The SQLite store for \(path) has \(maximumWaiting) operations waiting for its connection already; "
                    + "retry shortly, or spread the load over more processes."
            )
        }
        defer { pending.subtract(1, ordering: .relaxed) }
        return try await run(body, enqueuedAt: .now)
    }

    /// Runs `body` in a write transaction (see ``Database/transaction(_:)``), as ``session(_:)`` runs it.
    nonisolated func transaction<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(StoreError) -> T {
        try await session { database in try database.transaction(body) }
    }

    private func run<T: Sendable>(
        _ body: (Database) throws -> T,
        enqueuedAt: ContinuousClock.Instant
    ) throws(StoreError) -> T {
        guard enqueuedAt.duration(to: .now) <= waitTimeout else {
            throw StoreError(
                .unavailable,
                "An operation waited \(waitTimeout) for the SQLite store's connection to \(path) and gave up; "
                    + "retry shortly, and look for slow statements or a lock held by another process."
            )
        }
        guard let database else { throw StoreError(.unavailable, "The SQLite store for \(path) is closed.") }
        do {
            return try body(database)
        } catch {
            throw StoreErrors.map(error, path: path, doing: "query")
        }
    }

    /// Waits for the operations queued before it, then closes the connection. Later operations fail with
    /// `.unavailable`. The thread stops when the last reference to this actor goes: an operation must never be
    /// queued on a thread that has stopped, where it would wait for ever.
    func close() {
        database?.close()
        database = nil
    }

    deinit {
        group.shutdownGracefully { _ in }
    }
}
