import PasskeyStorage
import SQLiteNIO

/// The store's one SQLite connection, lent to one operation at a time.
///
/// An operation borrows the connection with ``withSession(_:)`` or ``withTransaction(_:)`` and keeps it across
/// all its statements, so no other task's statement ever runs inside its transaction. Waiting operations queue
/// in arrival order, at most ``maximumWaiting`` of them and each for at most ``waitTimeout``: beyond either the
/// operation fails with `.unavailable` (the server answers 503 with `Retry-After`) instead of piling up. The connection runs its statements on a thread of its own, so a statement that waits
/// for another process's lock (up to the busy timeout) blocks no other work of the process.
actor SQLiteConnectionLease {
    let path: String
    private var connection: SQLiteConnection?
    private let threadPool: NIOThreadPool
    private(set) var isLent = false
    /// The operations waiting for the connection, in arrival order; each is resumed with whether it got it.
    private var waiting: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextWaiterID = 0
    /// The most operations that may wait for the connection at once.
    let maximumWaiting: Int
    /// The longest an operation waits for the connection.
    let waitTimeout: Duration

    static let defaultMaximumWaiting = 1024
    static let defaultWaitTimeout = Duration.seconds(15)

    init(
        path: String,
        connection: SQLiteConnection,
        threadPool: NIOThreadPool,
        maximumWaiting: Int = defaultMaximumWaiting,
        waitTimeout: Duration = defaultWaitTimeout
    ) {
        self.path = path
        self.connection = connection
        self.threadPool = threadPool
        self.maximumWaiting = maximumWaiting
        self.waitTimeout = waitTimeout
    }

    /// Opens a connection to the file at `path` on a thread pool of its own and applies the connection
    /// settings: the busy timeout, foreign keys, WAL, and when commits reach the disk.
    static func open(
        path: String,
        busyTimeout: Duration,
        durability: SQLitePasskeyStore.Durability,
        maximumWaiting: Int = defaultMaximumWaiting,
        waitTimeout: Duration = defaultWaitTimeout
    ) async throws(StoreError) -> SQLiteConnectionLease {
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .file(path: path),
                threadPool: threadPool,
                on: MultiThreadedEventLoopGroup.singleton.any()
            )
        } catch {
            try? await threadPool.shutdownGracefully()
            throw StoreErrors.map(error, path: path, doing: "open")
        }
        let lease = SQLiteConnectionLease(
            path: path,
            connection: connection,
            threadPool: threadPool,
            maximumWaiting: maximumWaiting,
            waitTimeout: waitTimeout
        )
        let timeout = milliseconds(busyTimeout)
        do {
            try await lease.withSession { session in
                // First, so that no statement below spins on the connection's default busy handler.
                try await session.execute("PRAGMA busy_timeout = \(timeout)")
                try await session.execute("PRAGMA foreign_keys = ON")
                let mode = try await session.rows("PRAGMA journal_mode = WAL").first?.column("journal_mode")?.string
                guard mode?.lowercased() == "wal" else {
                    throw StoreError(
                        .unavailable,
                        "The SQLite database at \(path) could not use write-ahead logging (journal mode \(mode ?? "unknown")). "
                            + "Keep it on a local file system, not a network share."
                    )
                }
                try await session.execute("PRAGMA synchronous = \(durability.synchronous)")
            }
        } catch {
            await lease.close()
            throw error
        }
        return lease
    }

    /// SQLite's busy timeout is a 32-bit count of milliseconds.
    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        guard seconds < Int64(Int32.max) / 1000 else { return Int64(Int32.max) }
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Runs `body` with the connection to itself.
    ///
    /// `body` runs to its end even when the calling task is cancelled: SQLiteNIO skips the statements of a
    /// cancelled task, which could leave a transaction open, with the write lock held, on the shared connection.
    func withSession<T: Sendable>(
        _ body: @escaping @Sendable (Session) async throws -> T
    ) async throws(StoreError) -> T {
        try await acquire()
        defer { release() }
        guard let connection else { throw StoreError(.unavailable, "The SQLite store for \(path) is closed.") }
        let session = Session(connection: connection)
        do {
            // An unstructured task does not inherit the caller's cancellation; awaiting it waits for its end.
            return try await Task { try await body(session) }.value
        } catch {
            throw StoreErrors.map(error, path: path, doing: "query")
        }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`): it takes the database's write lock before its
    /// first read, waiting up to the busy timeout for other connections and processes, so what it reads
    /// cannot change before it commits. Any error rolls the transaction back.
    func withTransaction<T: Sendable>(
        _ body: @escaping @Sendable (Session) async throws -> T
    ) async throws(StoreError) -> T {
        try await withSession { session in
            try await session.execute("BEGIN IMMEDIATE")
            do {
                let result = try await body(session)
                try await session.execute("COMMIT")
                return result
            } catch {
                // SQLite may have rolled back already (after I/O errors, say); then this fails harmlessly.
                try? await session.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Waits for the operation in progress, then closes the connection and stops its thread. Later operations
    /// fail with `.unavailable`.
    func close() async {
        // Closing waits its turn however long the queue is.
        try? await acquire(bounded: false)
        defer { release() }
        guard let connection else { return }
        self.connection = nil
        let threadPool = threadPool
        // Not skipped when the caller is cancelled (see withSession).
        await Task {
            try? await connection.close()
            try? await threadPool.shutdownGracefully()
        }.value
    }

    /// Takes the connection, waiting in line for it; `bounded`: refused when ``maximumWaiting`` operations wait
    /// already, and given up after ``waitTimeout``.
    private func acquire(bounded: Bool = true) async throws(StoreError) {
        guard isLent else {
            isLent = true
            return
        }
        if bounded, waiting.count >= maximumWaiting {
            throw StoreError(
                .unavailable,
                "The SQLite store for \(path) has \(maximumWaiting) operations waiting for its connection already; "
                    + "retry shortly, or spread the load over more processes."
            )
        }
        let id = nextWaiterID
        nextWaiterID += 1
        let timer: Task<Void, Never>? =
            bounded
            ? Task { [waitTimeout] in
                guard (try? await Task.sleep(for: waitTimeout)) != nil else { return }
                self.expire(id)
            } : nil
        let granted = await withCheckedContinuation { waiting.append((id, $0)) }
        timer?.cancel()
        guard granted else {
            throw StoreError(
                .unavailable,
                "An operation waited \(waitTimeout) for the SQLite store's connection to \(path) and gave up; "
                    + "retry shortly, and look for slow statements or a lock held by another process."
            )
        }
    }

    /// The waiter `id` has waited ``waitTimeout``: it leaves the line without the connection.
    private func expire(_ id: Int) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(returning: false)
    }

    private func release() {
        if waiting.isEmpty {
            isLent = false
        } else {
            // The lease passes straight to the next in line.
            waiting.removeFirst().continuation.resume(returning: true)
        }
    }

    deinit {
        // A store dropped without close(): close the connection anyway, in the background.
        if let connection {
            let threadPool = threadPool
            connection.close().whenComplete { _ in threadPool.shutdownGracefully { _ in } }
        }
    }
}

/// Statements on the connection, by the operation that holds its lease.
struct Session: Sendable {
    let connection: SQLiteConnection

    func rows(_ sql: String, _ binds: [SQLiteData] = []) async throws -> [SQLiteRow] {
        try await connection.query(sql, binds)
    }

    func execute(_ sql: String, _ binds: [SQLiteData] = []) async throws {
        _ = try await connection.query(sql, binds)
    }
}
