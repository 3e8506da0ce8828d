import Synchronization

/// Wakes one waiting task early: ``wait(upTo:)`` returns when ``ring()`` is called, or was since the last wait, or
/// after its timeout, whichever comes first.
final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Waits for a ring, at most `timeout`. One task waits at a time.
    func wait(upTo timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            // Rings when the time is up, or when the wait is cancelled: either way the wait ends. A ring that comes
            // after the wait ended is kept for the next one, which then returns at once: one early round, no harm.
            group.addTask {
                try? await Task.sleep(for: timeout)
                self.ring()
            }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    if state.rung {
                        state.rung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
            group.cancelAll()
        }
    }
}
