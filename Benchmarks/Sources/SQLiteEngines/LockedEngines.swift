import GRDB
import Synchronization

// Two variants without the trip to the connection's thread, to show what the trips cost: the operation runs on
// the calling task's thread, under a lock. Not a design for the server: a statement waiting for another
// process's lock (up to the busy timeout) would block a thread of Swift's concurrency pool. Each operation
// first yields (as the other engines' tasks suspend once per operation), which also lets the other tasks run.

/// The C-API engine's connection behind a mutex, used from the caller's thread.
final class LockedCEngine<Library: SQLiteLibrary>: Engine {
    private let connection: Mutex<CConnection<Library>>

    init(path: String) throws {
        connection = Mutex(try CConnection<Library>(path: path))
    }

    func run<T: Sendable>(_ access: Access, _ body: @Sendable (CSession<Library>) throws -> T) async throws -> T {
        await Task.yield()
        return try connection.withLock { try body(CSession(connection: $0)) }
    }

    func close() async throws {
        connection.withLock { $0.close() }
    }
}

/// GRDB's synchronous access (`DatabaseQueue` runs the closure on the calling thread, in its queue's turn).
struct SynchronousGRDBEngine: Engine {
    let engine: GRDBEngine

    func run<T: Sendable>(_ access: Access, _ body: @Sendable (GRDBSession) throws -> T) async throws -> T {
        await Task.yield()
        return try synchronously(body)
    }

    private func synchronously<T>(_ body: (GRDBSession) throws -> T) throws -> T {
        try engine.queue.writeWithoutTransaction { try body(GRDBSession(db: $0)) }
    }

    func close() async throws { try await engine.close() }
}
