import PostgresNIO
import Synchronization

/// Admits a store's operations to its connection pool: as many at once as the pool may have connections, the
/// others in a queue, in arrival order, each until its deadline. An operation that finds a turn free takes it
/// without waiting, creating a task or starting a timer; while operations queue, one task fails those whose
/// deadline passed.
///
/// It also knows which of the pool's connections are open (each seen leased, and not closed since), so that an
/// admitted operation can tell whether one of them is idle for it: the pool serves it at once, without opening a
/// connection. A connection lost at the very moment of that check is the one case where the lease may wait for a
/// new connection unbounded by the gate; the pool then gives up by itself after a minute.
final class ConnectionGate: Sendable {
    private struct Waiter {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        let timeout: Duration
        let continuation: CheckedContinuation<Bool, any Error>
    }

    private struct State {
        let capacity: Int
        /// Turns that an arriving operation may take without waiting.
        var free: Int
        /// Operations waiting for a turn, oldest first.
        var waiting: [Waiter] = []
        var lastID: UInt64 = 0
        /// Whether a task is failing the waiting operations at their deadlines.
        var timing = false
        /// The ids of the pool's connections known to be open.
        var open: Set<Int> = []

        /// Whether every admitted operation, this one included, can have a connection known to be open.
        var idle: Bool { capacity - free <= open.count }
    }

    private let state: Mutex<State>

    init(capacity: Int) {
        state = Mutex(State(capacity: capacity, free: capacity))
    }

    /// Takes a turn, waiting for one until `deadline` at most (`timeout` is the whole wait, for the error). Returns
    /// whether a pooled connection is idle for the operation; throws ``ConnectionWaitTimeout`` when the deadline
    /// passed first, and `CancellationError` when the caller was cancelled while waiting. Each turn taken must be
    /// given back with ``leave()``.
    func enter(until deadline: ContinuousClock.Instant, timeout: Duration) async throws -> Bool {
        let admitted = state.withLock { state -> Bool? in
            guard state.free > 0 else { return nil }
            state.free -= 1
            return state.idle
        }
        if let admitted { return admitted }
        let id = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                enum Next {
                    case admitted(Bool)
                    case cancelled
                    case waiting(startTimer: Bool)
                }
                let next = state.withLock { state -> Next in
                    // A cancellation that came before the waiter was queued found nothing to remove.
                    if Task.isCancelled { return .cancelled }
                    // A turn may have been given back since the first look.
                    if state.free > 0 {
                        state.free -= 1
                        return .admitted(state.idle)
                    }
                    state.waiting.append(
                        Waiter(id: id, deadline: deadline, timeout: timeout, continuation: continuation)
                    )
                    let startTimer = !state.timing
                    state.timing = true
                    return .waiting(startTimer: startTimer)
                }
                switch next {
                case .admitted(let idle): continuation.resume(returning: idle)
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting(startTimer: true): Task { await self.expireWaiters() }
                case .waiting(startTimer: false): break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Gives back a turn: to the oldest waiting operation, or to the next that arrives.
    func leave() {
        let next = state.withLock { state -> (Waiter, Bool)? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return (state.waiting.removeFirst(), state.idle)
        }
        if let (waiter, idle) = next { waiter.continuation.resume(returning: idle) }
    }

    /// Notes that `connection` is open, until it closes.
    func opened(_ connection: PostgresConnection) {
        let id = connection.id
        guard state.withLock({ $0.open.insert(id).inserted }) else { return }
        connection.closeFuture.whenComplete { _ in
            _ = self.state.withLock { $0.open.remove(id) }
        }
    }

    /// Fails each waiting operation at its deadline, for as long as any waits.
    private func expireWaiters() async {
        while true {
            let (expired, next) = state.withLock { state in
                let now = ContinuousClock.now
                let expired = state.waiting.filter { $0.deadline <= now }
                state.waiting.removeAll { $0.deadline <= now }
                let next = state.waiting.map(\.deadline).min()
                if next == nil { state.timing = false }
                return (expired, next)
            }
            for waiter in expired {
                waiter.continuation.resume(throwing: ConnectionWaitTimeout(timeout: waiter.timeout))
            }
            guard let next else { return }
            try? await Task.sleep(until: next, clock: .continuous)
        }
    }
}
