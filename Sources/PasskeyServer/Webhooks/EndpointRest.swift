import Foundation

/// Which endpoints the delivery worker leaves alone for a while, so that an endpoint that is down costs a few attempts
/// per pause rather than one per event. After ``threshold`` attempts in a row that were not delivered, an endpoint
/// rests: its deliveries stay due in the outbox but are not claimed, for a pause that starts at the first retry's wait
/// and doubles each time the endpoint rests again, up to ``maximumPause``. After the pause its deliveries are claimed
/// again: one delivered ends the resting, one that is not starts the next, longer pause. Each server process learns
/// it for itself; nothing of it is stored.
struct EndpointRest: Sendable {
    static let threshold = 3
    static let maximumPause: TimeInterval = 300

    private struct Health: Sendable {
        /// Attempts not delivered since the last delivered one or the last pause's start.
        var failures = 0
        /// Pauses since the last delivered attempt.
        var pauses = 0
        var until: Date?
    }

    let firstPause: TimeInterval
    private var health: [String: Health] = [:]

    init(firstPause: TimeInterval) { self.firstPause = firstPause }

    /// The endpoints resting at `time`, in name order.
    func resting(at time: Date) -> [String] {
        health.filter { ($0.value.until ?? time) > time }.keys.sorted()
    }

    /// Counts an attempt to `endpoint` that ended at `time`.
    mutating func record(endpoint: String, delivered: Bool, at time: Date) {
        guard !delivered else {
            health[endpoint] = nil
            return
        }
        var state = health[endpoint, default: Health()]
        // The attempts that were under way when the pause began end during it: they change nothing.
        guard (state.until ?? time) <= time else { return }
        state.failures += 1
        if state.failures >= (state.pauses == 0 ? Self.threshold : 1) {
            state.until = time + min(firstPause * pow(2, Double(state.pauses)), Self.maximumPause)
            state.pauses += 1
            state.failures = 0
        }
        health[endpoint] = state
    }
}
