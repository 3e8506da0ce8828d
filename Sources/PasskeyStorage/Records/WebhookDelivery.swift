public import Foundation

/// One event for one webhook endpoint, as the audit log's append writes it to the outbox: the body is final (the
/// bytes that are signed and sent on every attempt), and `id` is the Standard Webhooks message id (`webhook-id`),
/// the same for every endpoint the event goes to and on every attempt, so a receiver can drop a repeat.
public struct WebhookMessage: Sendable, Hashable {
    /// `msg_` and random characters.
    public var id: String
    /// The configured endpoint's name.
    public var endpoint: String
    /// Such as `passkey.registered`.
    public var eventType: String
    /// The JSON body, `{"type": …, "timestamp": …, "data": {…}}`. Never holds a secret.
    public var payload: String
    public var createdAt: Date

    public init(id: String, endpoint: String, eventType: String, payload: String, createdAt: Date) {
        self.id = id
        self.endpoint = endpoint
        self.eventType = eventType
        self.payload = payload
        self.createdAt = createdAt
    }
}

/// A message in the outbox and how its delivery stands.
public struct WebhookDelivery: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Waiting for its next attempt (or in one).
        case pending
        /// An attempt was answered with a 2xx status.
        case delivered
        /// Given up: no attempt succeeded within the retry period.
        case failed
    }

    /// Assigned by the store, increasing in the order the messages were written.
    public var id: Int64
    public var message: WebhookMessage
    public var status: Status
    /// Attempts made (or started) so far.
    public var attempts: Int
    /// When the next attempt is due (while pending); while an attempt runs, when its claim lapses.
    public var nextAttemptAt: Date?
    public var lastAttemptAt: Date?
    /// The HTTP status of the last attempt's answer, when there was one.
    public var lastAnswer: Int?
    /// Why the last attempt got no answer (`timeout`, `redirect`, `too_large`, `transport`), when it got none.
    public var lastError: String?

    public init(
        id: Int64,
        message: WebhookMessage,
        status: Status,
        attempts: Int,
        nextAttemptAt: Date?,
        lastAttemptAt: Date? = nil,
        lastAnswer: Int? = nil,
        lastError: String? = nil
    ) {
        self.id = id
        self.message = message
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastAttemptAt = lastAttemptAt
        self.lastAnswer = lastAnswer
        self.lastError = lastError
    }
}

/// What one attempt of a claimed delivery came to.
public struct WebhookAttempt: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// Answered with a 2xx status.
        case delivered
        /// Not delivered; the next attempt is due then.
        case retry(at: Date)
        /// Not delivered, and no further attempt is made.
        case failed
    }

    public var deliveryID: Int64
    /// The delivery's `attempts` as its claim returned it: the attempt this result is of.
    public var attempt: Int
    public var at: Date
    public var answer: Int?
    public var error: String?
    public var outcome: Outcome

    public init(deliveryID: Int64, attempt: Int, at: Date, answer: Int?, error: String?, outcome: Outcome) {
        self.deliveryID = deliveryID
        self.attempt = attempt
        self.at = at
        self.answer = answer
        self.error = error
        self.outcome = outcome
    }

    /// The status the delivery has after this attempt.
    public var status: WebhookDelivery.Status {
        switch outcome {
        case .delivered: .delivered
        case .retry: .pending
        case .failed: .failed
        }
    }

    /// When the next attempt is due after this one: only for a retry.
    public var nextAttemptAt: Date? {
        if case .retry(let time) = outcome { return time }
        return nil
    }
}
