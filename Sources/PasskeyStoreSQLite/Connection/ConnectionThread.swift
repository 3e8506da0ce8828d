import NIOCore
import NIOPosix
import PasskeyStorage
import Synchronization

/// The store's one SQLite connection, on a thread of its own, running the store's operations in arrival order.
///
/// A store operation runs as one unit on the connection's thread: all its statements in one synchronous closure
/// given to ``session(_:)`` — one trip from the caller to that thread and one back, however many statements it
/// runs. The thread takes the operations that queued up while it worked, and commits them together: one
/// `BEGIN IMMEDIATE` transaction for the batch, each operation inside it in a savepoint of its own. An operation
/// that throws is rolled back to its savepoint and the others stay; every operation is atomic, sees what the
/// operations before it did, and returns only once the batch is committed (and fails when the commit does). So a
/// busy store commits, and wakes its thread, once per batch instead of once per operation; and as every
/// operation runs holding the write lock, what it reads cannot change before it commits, across processes too.
///
/// The line of waiting operations is bounded: at most ``maximumWaiting`` wait at once (beyond that an operation
/// fails at once with `.unavailable`, which the server answers with 503 and `Retry-After`), and an operation whose
/// turn comes after it waited ``waitTimeout`` fails the same way without running. So no caller waits much longer
/// than the timeout plus the batch in progress. A statement that waits for another process's lock (up to the
/// busy timeout) blocks only this thread.
final class ConnectionThread: Sendable {
    let path: String
    /// The most operations that may wait for the connection at once.
    let maximumWaiting: Int
    /// The longest an operation waits for its turn.
    let waitTimeout: Duration
    /// The most operations committed together.
    static let maximumBatch = 64

    static let defaultMaximumWaiting = 1024
    static let defaultWaitTimeout = Duration.seconds(15)

    private let group: MultiThreadedEventLoopGroup
    private let loop: any EventLoop
    private let queue = Mutex(Queue())
    /// Only ever touched on the connection's thread.
    private nonisolated(unsafe) var database: Database?

    private struct Queue: ~Copyable {
        var entries: [Entry] = []
        /// Whether the thread is draining the queue (then new entries need no wake-up).
        var draining = false
        var waiting = 0
    }

    private enum Entry: Sendable {
        case operation(any QueuedOperation)
        case close(CheckedContinuation<Void, Never>)
    }

    private init(path: String, maximumWaiting: Int, waitTimeout: Duration) {
        self.path = path
        self.maximumWaiting = maximumWaiting
        self.waitTimeout = waitTimeout
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
    }

    deinit {
        // Nothing is queued any more: every queued entry holds a reference to this object.
        group.shutdownGracefully { _ in }
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
        let loop = connection.loop
        let opened = await withCheckedContinuation { continuation in
            loop.execute {
                continuation.resume(
                    returning: Result { () throws(StoreError) in
                        try connection.connect(busyTimeout: busyTimeout, durability: durability)
                    }
                )
            }
        }
        try opened.get()
        return connection
    }

    /// On the connection's thread.
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
            database?.close()
            database = nil
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

    /// How many operations wait for the connection or run on it now.
    var operations: Int { queue.withLock { $0.waiting } }

    /// Runs `body` with the connection, on its thread, atomically (see the type's description). `body` must not
    /// wait for another operation of the store: it would wait for its own batch to end.
    func session<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(StoreError) -> T {
        let result = await withCheckedContinuation { continuation in
            let operation = Operation(body: body, enqueuedAt: .now, continuation: continuation)
            enqueue(.operation(operation)) {
                operation.finish(
                    StoreError(
                        .unavailable,
                        "The SQLite store for \(path) has \(maximumWaiting) operations waiting for its connection "
                            + "already; retry shortly, or spread the load over more processes."
                    )
                )
            }
        }
        return try result.get()
    }

    /// Waits for the operations queued before it, then closes the connection. Later operations fail with
    /// `.unavailable`. The thread stops when the last reference to this object goes.
    func close() async {
        await withCheckedContinuation { continuation in enqueue(.close(continuation), refused: {}) }
    }

    private func enqueue(_ entry: Entry, refused: () -> Void) {
        let (accepted, wake) = queue.withLock { queue -> (Bool, Bool) in
            if case .operation = entry {
                guard queue.waiting < maximumWaiting + 1 else { return (false, false) }
                queue.waiting += 1
            }
            queue.entries.append(entry)
            defer { queue.draining = true }
            return (true, !queue.draining)
        }
        guard accepted else { return refused() }
        if wake { loop.execute { self.drain() } }
    }

    /// On the connection's thread: runs what is queued, batch by batch, until the queue is empty.
    private func drain() {
        while true {
            let entries = queue.withLock { queue -> [Entry] in
                let taken = queue.entries
                queue.entries = []
                if taken.isEmpty { queue.draining = false }
                return taken
            }
            if entries.isEmpty { return }
            var batch: [any QueuedOperation] = []
            for entry in entries {
                switch entry {
                case .operation(let operation):
                    batch.append(operation)
                    if batch.count == Self.maximumBatch {
                        commit(batch)
                        batch = []
                    }
                case .close(let continuation):
                    commit(batch)
                    batch = []
                    database?.close()
                    database = nil
                    continuation.resume()
                }
            }
            commit(batch)
        }
    }

    /// On the connection's thread: runs `batch` in one transaction, each operation in a savepoint, and then
    /// gives each its result.
    private func commit(_ batch: [any QueuedOperation]) {
        guard !batch.isEmpty else { return }
        let failures = execute(batch)
        // Counted out before any caller resumes, so that a caller's next operation finds its place free.
        queue.withLock { $0.waiting -= batch.count }
        for (operation, failure) in zip(batch, failures) { operation.finish(failure) }
    }

    /// Runs the operations that did not wait too long, and returns the failure of each (nil: its own result).
    private func execute(_ batch: [any QueuedOperation]) -> [StoreError?] {
        guard let database else {
            return batch.map { _ in StoreError(.unavailable, "The SQLite store for \(path) is closed.") }
        }
        let now = ContinuousClock.now
        var failures: [StoreError?] = batch.map { operation in
            guard operation.enqueuedAt.duration(to: now) > waitTimeout else { return nil }
            return StoreError(
                .unavailable,
                "An operation waited \(waitTimeout) for the SQLite store's connection to \(path) and gave up; "
                    + "retry shortly, and look for slow statements or a lock held by another process."
            )
        }
        let due = batch.indices.filter { failures[$0] == nil }
        guard !due.isEmpty else { return failures }
        do {
            try database.execute("BEGIN IMMEDIATE")
            for index in due {
                try database.execute("SAVEPOINT operation")
                if !batch[index].run(on: database, path: path) {
                    try database.execute("ROLLBACK TO operation")
                }
                try database.execute("RELEASE operation")
            }
            try database.execute("COMMIT")
        } catch {
            // SQLite may have rolled back already (after I/O errors, say); then this fails harmlessly.
            try? database.execute("ROLLBACK")
            let failure = StoreErrors.map(error, path: path, doing: "commit")
            for index in due { failures[index] = failure }
        }
        return failures
    }
}

/// An operation waiting for the connection, its result type erased.
private protocol QueuedOperation: AnyObject, Sendable {
    var enqueuedAt: ContinuousClock.Instant { get }
    /// Runs the operation and keeps its result; false when it failed (and must be rolled back).
    func run(on database: Database, path: String) -> Bool
    /// Resumes the caller: with `failure` when given, otherwise with the result kept.
    func finish(_ failure: StoreError?)
}

/// `result` is written and read only on the connection's thread.
private final class Operation<T: Sendable>: QueuedOperation, @unchecked Sendable {
    let body: @Sendable (Database) throws -> T
    let enqueuedAt: ContinuousClock.Instant
    let continuation: CheckedContinuation<Result<T, StoreError>, Never>
    private var result: Result<T, StoreError>?

    init(
        body: @escaping @Sendable (Database) throws -> T,
        enqueuedAt: ContinuousClock.Instant,
        continuation: CheckedContinuation<Result<T, StoreError>, Never>
    ) {
        self.body = body
        self.enqueuedAt = enqueuedAt
        self.continuation = continuation
    }

    func run(on database: Database, path: String) -> Bool {
        do {
            result = .success(try body(database))
            return true
        } catch {
            result = .failure(StoreErrors.map(error, path: path, doing: "query"))
            return false
        }
    }

    func finish(_ failure: StoreError?) {
        if let failure {
            continuation.resume(returning: .failure(failure))
        } else {
            continuation.resume(returning: result ?? .failure(StoreError(.unavailable, "The operation did not run.")))
        }
    }
}
