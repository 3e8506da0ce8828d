import Synchronization

/// Counts the event streams open in this process, so that a flood of them cannot tie the store up with polls: past
/// `limits.maxEventStreams`, a stream ends at once and its client polls instead.
final class EventStreamGate: Sendable {
    private let open = Atomic<Int>(0)

    /// Takes a place when fewer than `limit` are taken; false when none is left.
    func enter(limit: Int) -> Bool {
        let (_, taken) = open.add(1, ordering: .relaxed)
        guard taken > limit else { return true }
        open.subtract(1, ordering: .relaxed)
        return false
    }

    func leave() { open.subtract(1, ordering: .relaxed) }
}
