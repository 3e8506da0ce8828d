import Logging
import PasskeyStorage
import Synchronization

/// Follows the handoffs whose status this process streams (``HandoffFlow/events(of:by:)``), for all of them at once:
/// while one stream is open, one loop reads every followed handoff from the store each ``interval``, in one call per
/// ``readBatch`` handoffs, and hands each stream its handoff's status. Open streams so cost the store one read per
/// interval, however many they are; and since the status is read from the store, a change made by another server
/// process is seen too.
final class HandoffWatch: Sendable {
    static let interval = Duration.milliseconds(500)
    /// The most handoffs one store call reads.
    static let readBatch = 500

    private typealias Follower = AsyncStream<HandoffStatusResponse>.Continuation

    private struct State {
        var followers: [String: [Int: Follower]] = [:]
        var nextKey = 0
        var polling = false
    }

    private let context: FlowContext
    private let state = Mutex(State())

    init(context: FlowContext) {
        self.context = context
    }

    /// The status of `handoff` each time the loop read it, changed or not (a stream keeps its heartbeat by them).
    /// It finishes when the handoff is gone from the store, or could not be read; the handoff is no longer followed
    /// once its reader stops.
    func follow(_ handoff: String) -> AsyncStream<HandoffStatusResponse> {
        let (statuses, follower) = AsyncStream.makeStream(
            of: HandoffStatusResponse.self,
            bufferingPolicy: .bufferingNewest(1)
        )
        let (key, start) = state.withLock { state in
            let key = state.nextKey
            state.nextKey += 1
            state.followers[handoff, default: [:]][key] = follower
            defer { state.polling = true }
            return (key, !state.polling)
        }
        follower.onTermination = { [weak self] _ in self?.unfollow(handoff, key: key) }
        if start { Task.detached { await self.poll() } }
        return statuses
    }

    private func unfollow(_ handoff: String, key: Int) {
        state.withLock { state in
            state.followers[handoff]?[key] = nil
            if state.followers[handoff]?.isEmpty == true { state.followers[handoff] = nil }
        }
    }

    /// Reads and hands over until no handoff is followed.
    private func poll() async {
        while true {
            try? await Task.sleep(for: Self.interval)
            let handoffs: [String]? = state.withLock { state in
                guard !state.followers.isEmpty else {
                    state.polling = false
                    return nil
                }
                return Array(state.followers.keys)
            }
            guard let handoffs else { return }
            let statuses = await read(handoffs)
            // Handed over outside the lock: finishing a follower calls its termination handler, which takes it.
            let followers = state.withLock { state in
                handoffs.map { ($0, Array(state.followers[$0, default: [:]].values)) }
            }
            for (handoff, followers) in followers {
                for follower in followers {
                    if let status = statuses?[handoff] { follower.yield(status) } else { follower.finish() }
                }
            }
        }
    }

    /// The handoffs' statuses by id (one left out is gone), or nil when the store failed.
    private func read(_ handoffs: [String]) async -> [String: HandoffStatusResponse]? {
        var statuses: [String: HandoffStatusResponse] = [:]
        for start in stride(from: 0, to: handoffs.count, by: Self.readBatch) {
            let batch = Array(handoffs[start..<min(start + Self.readBatch, handoffs.count)])
            do {
                let time = context.now()
                for read in try await context.store.crossPlatformSessions(ids: batch) {
                    statuses[read.session.id] = HandoffFlow.status(of: read.session, flow: read.flow, at: time)
                }
            } catch {
                context.logger.error(
                    "could not read the handoffs whose status is streamed; their streams end",
                    metadata: ["error": "\(error)", "handoffs": "\(handoffs.count)"]
                )
                return nil
            }
        }
        return statuses
    }
}
