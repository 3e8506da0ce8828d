import Synchronization

/// How many outbound calls to a vendor this process makes at once. A call beyond the limit is refused at once
/// rather than queued: a queue would let one flood of starts delay every other person's verification for as long
/// as the vendor is slow.
final class OutboundCallGate: Sendable {
    let limit: Int
    private let inFlight = Mutex(0)

    init(limit: Int) { self.limit = limit }

    /// Takes a place for one call; false when all `limit` places are taken.
    func enter() -> Bool {
        inFlight.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func leave() {
        inFlight.withLock { $0 -= 1 }
    }
}
