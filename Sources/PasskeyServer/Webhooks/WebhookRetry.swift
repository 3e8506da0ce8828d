import Foundation

/// When a delivery that failed is tried again: after `webhooks.firstRetrySeconds`, then twice as long each time, at
/// most ``longestWait``, each wait spread by a random ±20 % so that endpoints coming back are not hit by every
/// retry at once. The last attempt is made ``period`` after the event; after it the delivery has failed.
enum WebhookRetry {
    /// How long after its event a delivery is tried: 24 hours.
    static let period: TimeInterval = 86_400
    /// The longest wait between two attempts.
    static let longestWait: TimeInterval = 3_600

    /// When the attempt after attempt number `attempt` (1 for the first) is due, or nil when it was the last.
    /// - Parameter jitter: a number in 0..<1 (random in use; fixed in tests).
    static func next(
        after attempt: Int,
        firstRetrySeconds: Int,
        createdAt: Date,
        now: Date,
        jitter: Double = Double.random(in: 0..<1)
    ) -> Date? {
        let deadline = createdAt + period
        guard now < deadline else { return nil }
        let doubled = Double(firstRetrySeconds) * pow(2, Double(min(max(attempt - 1, 0), 20)))
        let wait = min(doubled, longestWait) * (0.8 + 0.4 * jitter)
        return min(now + wait, deadline)
    }
}
