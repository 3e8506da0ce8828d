import Foundation
import PasskeyStorage
import Testing

@testable import PasskeyStoreSQLite

/// The line of operations waiting for the store's one connection is bounded in length (past it an operation fails
/// with `.unavailable` at once) and in time (an operation whose turn comes too late fails without running); the
/// operations queued together are committed together, each atomic.
@Suite("SQLite connection queue")
struct ConnectionQueueTests {
    /// Holds the connection's thread until ``release()``; ``held()`` returns once the holder has it.
    final class Holder: Sendable {
        private let started: AsyncStream<Void>
        private let startedContinuation: AsyncStream<Void>.Continuation
        private let gate = DispatchSemaphore(value: 0)

        init() {
            (started, startedContinuation) = AsyncStream.makeStream()
        }

        func hold(_ store: SQLitePasskeyStore) async throws {
            let started = startedContinuation
            let gate = gate
            _ = try await store.connection.session { _ in
                started.yield()
                gate.wait()
                return 0
            }
        }

        func held() async {
            for await _ in started { break }
        }

        func release() { gate.signal() }
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

    @Test("an operation whose turn comes after the wait timeout fails with .unavailable and does not run")
    func waitTimeout() async throws {
        try await withTemporaryDirectory { directory in
            // Only the late operation may meet the short timeout: on a loaded machine any operation can wait a
            // while for the connection's thread, so the migrations run beforehand, with the default timeout, and
            // the check afterwards reads the file through a store opened the same way.
            try await Self.open(directory, maximumWaiting: 8, waitTimeout: .seconds(600)).close()
            let store = try await Self.open(directory, maximumWaiting: 8, waitTimeout: .seconds(1))
            let holder = Holder()
            let holding = Task { try await holder.hold(store) }
            await holder.held()
            let user = UserRecord(id: "late", handle: [1, 2, 3], name: "late", displayName: "Late", createdAt: Date())
            let late = Task { await storeError { _ = try await store.createUserIfAbsent(user) } }
            // Its turn must come after the timeout: first it is in the line (however long a loaded machine takes to
            // start the task) — `operations` counts the holder's running operation too, so the line holds two —, then
            // it waits there longer than the timeout. Waiting longer is never wrong here.
            while store.connection.operations < 2 { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .seconds(2))
            holder.release()
            try await holding.value
            let error = await late.value
            #expect(error?.code == .unavailable)
            #expect(error?.reason.contains("gave up") == true)
            await store.close()
            let reopened = try await Self.open(directory, maximumWaiting: 8, waitTimeout: .seconds(600))
            #expect(try await reopened.user(id: "late") == nil)
            await reopened.close()
        }
    }

    @Test("operations committed together: one that throws is rolled back alone, the others are committed")
    func batch() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await Self.open(directory, maximumWaiting: 8, waitTimeout: .seconds(600))
            let holder = Holder()
            let holding = Task { try await holder.hold(store) }
            await holder.held()
            func user(_ id: String) -> UserRecord {
                UserRecord(id: id, handle: Array(id.utf8), name: id, displayName: id, createdAt: Date())
            }
            // Queued behind the holder, so they run in one batch when it lets go.
            let first = Task { try await store.createUserIfAbsent(user("first")) }
            let failing = Task {
                await storeError {
                    _ = try await store.connection.session { db in
                        try db.execute(
                            "INSERT INTO users (id, handle, name, display_name, created_at) VALUES (?, ?, ?, ?, ?)",
                            [.text("half"), .blob([9]), .text("half"), .text("half"), .real(0)]
                        )
                        throw StoreError(.limitReached, "refused after writing")
                    }
                }
            }
            let last = Task { try await store.createUserIfAbsent(user("last")) }
            while store.connection.operations < 4 { try await Task.sleep(for: .milliseconds(5)) }
            holder.release()
            try await holding.value
            _ = try await (first.value, last.value)
            #expect(await failing.value?.code == .limitReached)
            #expect(try await store.user(id: "first") != nil)
            #expect(try await store.user(id: "last") != nil)
            #expect(try await store.user(id: "half") == nil)
            await store.close()
        }
    }
}
