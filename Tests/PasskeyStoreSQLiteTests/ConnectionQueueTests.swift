import Foundation
import PasskeyStorage
import Testing

@testable import PasskeyStoreSQLite

/// The line of operations waiting for the store's one connection is bounded in length and in time: past either,
/// an operation fails with `.unavailable` at once instead of waiting without end.
@Suite("SQLite connection queue")
struct ConnectionQueueTests {
    /// Holds the connection until ``release()``; ``held()`` returns once the holder has it.
    final class Holder: Sendable {
        private let started: AsyncStream<Void>
        private let startedContinuation: AsyncStream<Void>.Continuation
        private let gate: AsyncStream<Void>
        private let gateContinuation: AsyncStream<Void>.Continuation

        init() {
            (started, startedContinuation) = AsyncStream.makeStream()
            (gate, gateContinuation) = AsyncStream.makeStream()
        }

        func hold(_ store: SQLitePasskeyStore) async throws {
            let started = startedContinuation
            let gate = gate
            _ = try await store.lease.withSession { _ in
                started.yield()
                for await _ in gate { break }
                return 0
            }
        }

        func held() async {
            for await _ in started { break }
        }

        func release() { gateContinuation.yield() }
    }

    static func open(
        _ directory: TemporaryDirectory,
        maximumWaiting: Int,
        waitTimeout: Duration
    ) async throws -> SQLitePasskeyStore {
        try await SQLitePasskeyStore.open(
            path: directory.file(),
            busyTimeout: .seconds(5),
            migrations: Migrations.all,
            maximumWaiting: maximumWaiting,
            waitTimeout: waitTimeout
        )
    }

    @Test("with the line full, an operation is refused at once with .unavailable, and the store works afterwards")
    func fullLine() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await Self.open(directory, maximumWaiting: 0, waitTimeout: .seconds(600))
            let holder = Holder()
            let holding = Task { try await holder.hold(store) }
            await holder.held()
            let error = await storeError { _ = try await store.user(id: "someone") }
            #expect(error?.code == .unavailable)
            #expect(error?.reason.contains("waiting for its connection") == true)
            holder.release()
            try await holding.value
            #expect(try await store.user(id: "someone") == nil)
            await store.close()
        }
    }

    @Test("an operation that waits longer than the wait timeout gives up with .unavailable")
    func waitTimeout() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await Self.open(directory, maximumWaiting: 8, waitTimeout: .milliseconds(200))
            let holder = Holder()
            let holding = Task { try await holder.hold(store) }
            await holder.held()
            let error = await storeError { _ = try await store.user(id: "someone") }
            #expect(error?.code == .unavailable)
            #expect(error?.reason.contains("gave up") == true)
            holder.release()
            try await holding.value
            #expect(try await store.user(id: "someone") == nil)
            await store.close()
        }
    }
}
