import Synchronization

/// Counts the handoff status streams open in this process — in all, per handoff and per client address — so that
/// neither a flood of them can tie the store up with polls nor one poll token or one address take every place:
/// `limits.maxEventStreams`, `limits.maxEventStreamsPerHandoff` and `limits.maxEventStreamsPerClient`.
final class EventStreamGate: Sendable {
    /// The limit that refused a stream, named as its setting.
    enum Limit: String, Sendable {
        case perHandoff = "maxEventStreamsPerHandoff"
        case perClient = "maxEventStreamsPerClient"
        case total = "maxEventStreams"
    }

    private struct Counts {
        var total = 0
        var handoffs: [String: Int] = [:]
        var clients: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())

    /// Takes a place for a stream of `handoff` from `client`, or names the limit that is reached (the narrowest first).
    func enter(handoff: String, client: String, limits: ServerConfiguration.Limits) -> Result<Place, Refusal> {
        let refused: Limit? = counts.withLock { counts in
            if counts.handoffs[handoff, default: 0] >= limits.maxEventStreamsPerHandoff { return .perHandoff }
            if counts.clients[client, default: 0] >= limits.maxEventStreamsPerClient { return .perClient }
            if counts.total >= limits.maxEventStreams { return .total }
            counts.total += 1
            counts.handoffs[handoff, default: 0] += 1
            counts.clients[client, default: 0] += 1
            return nil
        }
        if let refused { return .failure(Refusal(limit: refused)) }
        return .success(Place(gate: self, handoff: handoff, client: client))
    }

    fileprivate func leave(handoff: String, client: String) {
        counts.withLock { counts in
            counts.total -= 1
            Self.decrement(&counts.handoffs, handoff)
            Self.decrement(&counts.clients, client)
        }
    }

    private static func decrement(_ counts: inout [String: Int], _ key: String) {
        let left = counts[key, default: 1] - 1
        counts[key] = left > 0 ? left : nil
    }

    /// A stream refused by `limit`.
    struct Refusal: Error, Sendable {
        let limit: Limit
    }

    /// A stream's place, given back once: by ``leave()`` when the stream ends, or when the place is released should
    /// the stream never run (the client went away before its body was written).
    final class Place: Sendable {
        private let gate: EventStreamGate
        private let handoff: String
        private let client: String
        private let left = Atomic<Bool>(false)

        fileprivate init(gate: EventStreamGate, handoff: String, client: String) {
            self.gate = gate
            self.handoff = handoff
            self.client = client
        }

        func leave() {
            guard !left.exchange(true, ordering: .acquiringAndReleasing) else { return }
            gate.leave(handoff: handoff, client: client)
        }

        deinit { leave() }
    }
}
