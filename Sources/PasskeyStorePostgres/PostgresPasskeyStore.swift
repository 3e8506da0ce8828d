public import PasskeyStorage
import PostgresNIO

/// A ``PasskeyStore`` in PostgreSQL, for running any number of stateless server processes on one database.
///
/// Every guarantee of the contract holds across processes, because each operation is one statement or one
/// transaction in the database, never a read in Swift followed by a write:
/// - consuming a challenge, redeeming a result and updating a flow are each a single conditional
///   `UPDATE … WHERE … RETURNING`: of racing callers, the database lets exactly one match;
/// - inserting a credential and settling a reservation lock the user's row (`SELECT … FOR UPDATE`) in a
///   transaction, so that counting the live credentials, checking the name and inserting cannot interleave with
///   another process doing the same for that user; a partial unique index keeps active names unique regardless;
/// - audit events take their sequence numbers under a transaction-scoped advisory lock, so they become visible in
///   sequence order and a reader paging by sequence never skips one that commits late; the events that a process
///   appends while the lock is held are written together afterwards, in one statement;
/// - recording a credential's use is one `UPDATE … WHERE status = 'active' AND sign_count = … RETURNING`: a use
///   racing another use or a revocation waits for its row lock, then checks its conditions against what that one
///   committed; recording a sign-in does the same and updates the flow in the same statement, on rows it locked
///   first (the credential, then the flow), both or neither;
/// - counting a limit event is one `INSERT … ON CONFLICT … DO UPDATE … RETURNING`: racing counts of a key queue on
///   its row's lock, and each is counted; releasing one is an `UPDATE` that queues on the same lock;
/// - a web session goes with its user by a foreign key's cascade, and one that names a deleted user is refused.
///
/// The statements of a sign-in and a registration are prepared: each connection has PostgreSQL parse and plan
/// them once (see `StoreStatement`).
///
/// ## Lifecycle
/// ``connect(url:)`` opens one connection, applies the schema's migrations (see ``schemaVersion``) and closes it,
/// so a wrong address or password fails at once with `.unavailable`; then it starts a connection pool
/// (postgres-nio's `PostgresClient`). The store owns the task that runs the pool: nothing else needs running.
/// ``shutdown()`` closes the pool; dropping the store does too.
///
/// When the database becomes unreachable later, operations wait for a connection at most
/// ``Configuration/connectionWaitTimeout`` (10 seconds unless configured) and fail with `.unavailable`; the pool
/// keeps reconnecting in the background and the store recovers by itself once the server is back.
public final class PostgresPasskeyStore: PasskeyStore, Sendable {
    /// The schema version this code creates and understands. A database at a newer version is refused.
    public static var schemaVersion: Int { Migrations.latestVersion }
    /// Every schema version this code applies, in order.
    public static var schemaVersions: [Int] { Migrations.all.map(\.version) }

    public let configuration: Configuration
    let client: PostgresClient
    /// Audit events waiting to be written, in batches (see ``appendAuditEvent(_:)``).
    let auditLog = AuditLogWriter()
    /// Admits operations to the pool, as many at once as it may have connections.
    private let gate: ConnectionGate
    private let runner: Task<Void, Never>

    private init(configuration: Configuration) {
        let client = PostgresClient(configuration: configuration.clientConfiguration)
        self.configuration = configuration
        self.client = client
        self.gate = ConnectionGate(capacity: configuration.maximumConnections)
        self.runner = Task { await client.run() }
    }

    deinit {
        runner.cancel()
    }

    /// Connects to the database at a `postgres://` URL (see ``Configuration/init(url:)``), brings its schema
    /// up to date, and returns a store ready for use.
    public static func connect(url: String) async throws(StoreError) -> PostgresPasskeyStore {
        try await connect(Configuration(url: url))
    }

    /// Connects to the database, brings its schema up to date, and returns a store ready for use.
    ///
    /// Several processes may start at once: migrations run under an advisory lock, each step once. Fails with
    /// `.unavailable` saying what to check when the server cannot be reached, refuses the login, or holds a schema
    /// newer than ``schemaVersion``.
    public static func connect(_ configuration: Configuration) async throws(StoreError) -> PostgresPasskeyStore {
        try await migrate(configuration)
        return PostgresPasskeyStore(configuration: configuration)
    }

    /// Closes the pool's connections. Operations after it fail with `.unavailable`.
    public func shutdown() async {
        runner.cancel()
        await runner.value
    }

    private static func migrate(_ configuration: Configuration) async throws(StoreError) {
        let connectionConfiguration = try configuration.connectionConfiguration()
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: connectionConfiguration,
                id: 0,
                logger: Logger(label: "swift-passkeys.postgres")
            )
        } catch {
            throw configuration.storeError(error, doing: "connect")
        }
        do {
            try await Migrations.apply(on: connection)
        } catch {
            try? await connection.close()
            throw configuration.storeError(error, doing: "migrate the schema to version \(Migrations.latestVersion)")
        }
        try? await connection.close()
    }

    // MARK: Running statements

    /// Runs one statement on a pooled connection and returns its rows.
    func rows(
        _ query: PostgresQuery,
        doing operation: @autoclosure () -> String
    ) async throws(StoreError) -> [PostgresRow] {
        try await rows(doing: operation()) { connection in try await connection.rows(query) }
    }

    /// Runs `body`, one statement, on a pooled connection and returns its rows. A statement that loses a deadlock
    /// wrote nothing, and is run again, up to three times in all.
    func rows(
        doing operation: @autoclosure () -> String,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> [PostgresRow]
    ) async throws(StoreError) -> [PostgresRow] {
        var attempt = 1
        while true {
            do {
                return try await withPooledConnection(body)
            } catch {
                guard attempt < 3, Self.isTransient(error) else { throw storeError(error, doing: operation()) }
                attempt += 1
            }
        }
    }

    /// Runs `body` in a transaction on one pooled connection: committed when it returns, rolled back when it
    /// throws. Transactions that lose a deadlock or serialisation conflict are retried, up to three times in all.
    func transaction<Result: Sendable>(
        doing operation: @autoclosure () -> String,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws(StoreError) -> Result {
        var attempt = 1
        while true {
            do {
                return try await withPooledConnection { connection in
                    try await connection.withTransaction(logger: connection.logger) { connection in
                        try await body(connection)
                    }
                }
            } catch {
                guard attempt < 3, Self.isTransient(error) else { throw storeError(error, doing: operation()) }
                attempt += 1
            }
        }
    }

    /// Leases a connection from the pool for `body`, waiting at most ``Configuration/connectionWaitTimeout`` for
    /// one. While the server is unreachable the pool keeps trying to connect and only gives up after a minute; a
    /// request should hear `.unavailable` sooner. Only the wait is bounded: once `body` has a connection it runs to
    /// the end, so an operation that reports the timeout has not touched the database.
    ///
    /// The ``ConnectionGate`` admits as many operations at once as the pool may have connections and queues the
    /// others, each until its deadline. An admitted operation whose connection is idle in the pool leases it
    /// directly; only one that makes the pool open a connection (at start, after idle connections closed, while
    /// the server is unreachable) waits in a task group beside a timer.
    private func withPooledConnection<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let gate = self.gate
        let timeout = configuration.connectionWaitTimeout
        let deadline = ContinuousClock.now + timeout
        let idle = try await gate.enter(until: deadline, timeout: timeout)
        defer { gate.leave() }
        if idle {
            return try await client.withConnection { connection in
                gate.opened(connection)
                return try await body(connection)
            }
        }
        return try await Self.lease(from: client, until: deadline, timeout: timeout) { connection in
            gate.opened(connection)
            return try await body(connection)
        }
    }

    /// Leases a connection for `body`, giving up at `deadline` if the pool has none by then.
    private static func lease<Result: Sendable>(
        from client: PostgresClient,
        until deadline: ContinuousClock.Instant,
        timeout: Duration,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let lease = LeaseGate()
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                try await client.withConnection { connection in
                    guard await lease.lease() else { throw ConnectionWaitTimeout(timeout: timeout) }
                    return try await body(connection)
                }
            }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                if await lease.abandon() { throw ConnectionWaitTimeout(timeout: timeout) }
                return nil
            }
            while let result = try await group.next() {
                if let result {
                    group.cancelAll()
                    return result
                }
            }
            throw ConnectionWaitTimeout(timeout: timeout)
        }
    }

    private func storeError(_ error: any Error, doing operation: String) -> StoreError {
        if runner.isCancelled { return StoreError(.unavailable, "Could not \(operation): the store was shut down.") }
        return configuration.storeError(error, doing: operation)
    }

    private static func isTransient(_ error: any Error) -> Bool {
        switch error {
        case let error as PostgresTransactionError:
            guard let inner = error.closureError ?? error.commitError else { return false }
            return isTransient(inner)
        case let error as PSQLError:
            return ["40001", "40P01"].contains(error.serverInfo?[.sqlState])
        default:
            return false
        }
    }
}

extension PostgresConnection {
    /// Runs one statement in this connection's transaction and returns its rows.
    @discardableResult
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }
}

/// Decides, once, whether an operation got its connection or gave up waiting: whichever comes first wins.
private actor LeaseGate {
    private enum State {
        case waiting
        case leased
        case abandoned
    }

    private var state = State.waiting

    /// True when the operation may use the connection it was just given.
    func lease() -> Bool {
        guard state == .waiting else { return false }
        state = .leased
        return true
    }

    /// True when the operation gives up: it had no connection yet, and will not use one.
    func abandon() -> Bool {
        guard state == .waiting else { return false }
        state = .abandoned
        return true
    }
}

/// No pooled connection became free within the configured wait.
struct ConnectionWaitTimeout: Error {
    let timeout: Duration
}
