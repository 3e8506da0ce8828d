import Foundation
import Logging
import PasskeyStorage
public import ServiceLifecycle
import Synchronization

/// The background worker that delivers the webhook outbox: it claims the deliveries that are due
/// (``WebhookOutboxStore/claimWebhookDeliveries(at:leaseUntil:limit:excluding:)``), as many as it has free places for
/// (`webhooks.maxConcurrentDeliveries`), tries each (``WebhookAttemptCall``) and records the outcome, retrying with
/// ``WebhookRetry``'s schedule; an endpoint that keeps failing rests for a while (``EndpointRest``). It looks for due deliveries when an audited change of this process wrote some (the
/// outbox's doorbell), when an attempt ends, and at least every ``pollInterval`` (for retries, and for what other
/// processes on the database wrote).
///
/// Ceremonies never wait for it: they only write the outbox. A claim leases its deliveries for the attempt's timeout
/// and a minute more; when a process stops in the middle of an attempt, its deliveries are due again after the
/// lease, on any process — delivery is at least once. On graceful shutdown it claims nothing more and lets the
/// attempts under way finish (each within its timeout). ``PasskeyApplication/build(service:services:logger:onServerRunning:)``
/// runs it when endpoints are configured.
public struct WebhookDispatcher: Service, CustomStringConvertible {
    /// The longest time between two looks at the outbox.
    static let pollInterval = Duration.seconds(1)
    /// How long a claim outlives its attempt's timeout.
    static let leaseMargin: TimeInterval = 60

    let service: PasskeyService

    public init(service: PasskeyService) {
        self.service = service
    }

    /// How ServiceLifecycle names it in the log: the configuration (endpoint secrets included) stays out.
    public var description: String { "WebhookDispatcher" }

    public func run() async throws {
        let settings = service.configuration.webhooks
        let state = DispatcherState(firstPause: TimeInterval(settings.firstRetrySeconds))
        let endpoints = Set(settings.endpoints.map(\.name))
        let doorbell = service.context.webhooks.doorbell
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                while !state.stopping.load(ordering: .acquiring), !Task.isCancelled {
                    let free = settings.maxConcurrentDeliveries - state.inFlight.load(ordering: .acquiring)
                    let resting = state.rest.withLock { $0.resting(at: service.now()) }
                    // While every endpoint rests there is nothing to claim: the worker sleeps through the rings of
                    // new events, which would each wake it for nothing, until the next look is due.
                    if endpoints.isSubset(of: resting) {
                        try? await Task.sleep(for: Self.pollInterval)
                        continue
                    }
                    let claimed = free > 0 ? await claim(limit: free, excluding: resting) : []
                    for delivery in claimed {
                        state.inFlight.add(1, ordering: .releasing)
                        group.addTask {
                            let delivered = await attempt(delivery)
                            // A delivery to an endpoint no longer configured fails without an attempt.
                            if endpoints.contains(delivery.message.endpoint) {
                                state.rest.withLock {
                                    $0.record(
                                        endpoint: delivery.message.endpoint,
                                        delivered: delivered,
                                        at: service.now()
                                    )
                                }
                            }
                            state.inFlight.subtract(1, ordering: .releasing)
                            doorbell.ring()
                        }
                    }
                    if claimed.count < free || free <= 0 { await doorbell.wait(upTo: Self.pollInterval) }
                }
            }
        } onGracefulShutdown: {
            state.stopping.store(true, ordering: .releasing)
            doorbell.ring()
        }
    }

    /// Claims up to `limit` due deliveries, none to the `resting` endpoints (``EndpointRest``); none when the store
    /// fails (logged; the next look tries again).
    func claim(limit: Int, excluding resting: [String] = []) async -> [WebhookDelivery] {
        let now = service.now()
        let lease = TimeInterval(service.configuration.webhooks.timeoutSeconds) + Self.leaseMargin
        do {
            return try await service.context.store.claimWebhookDeliveries(
                at: now,
                leaseUntil: now + lease,
                limit: limit,
                excluding: resting
            )
        } catch {
            service.logger.error("Could not claim webhook deliveries.", metadata: ["error": "\(error)"])
            return []
        }
    }

    /// Tries one claimed delivery and records what came of it; returns whether it was delivered.
    @discardableResult
    func attempt(_ delivery: WebhookDelivery) async -> Bool {
        let settings = service.configuration.webhooks
        let endpoint = settings.endpoints.first { $0.name == delivery.message.endpoint }
        let outcome: WebhookAttemptCall.Outcome
        if let endpoint, let call = WebhookAttemptCall(delivery.message, to: endpoint, timeout: settings.timeoutSeconds)
        {
            outcome = await call.send(at: service.now())
        } else {
            outcome = .notConfigured
        }
        let now = service.now()
        let next: WebhookAttempt.Outcome
        if outcome.isDelivered {
            next = .delivered
        } else if endpoint != nil,
            let time = WebhookRetry.next(
                after: delivery.attempts,
                firstRetrySeconds: settings.firstRetrySeconds,
                createdAt: delivery.message.createdAt,
                now: now
            )
        {
            next = .retry(at: time)
        } else {
            next = .failed
        }
        let attempt = WebhookAttempt(
            deliveryID: delivery.id,
            attempt: delivery.attempts,
            at: now,
            answer: outcome.answer,
            error: outcome.error,
            outcome: next
        )
        var metadata: Logger.Metadata = [
            "endpoint": "\(delivery.message.endpoint)", "webhookId": "\(delivery.message.id)",
            "type": "\(delivery.message.eventType)", "attempt": "\(delivery.attempts)",
            "outcome": "\(attempt.status.rawValue)",
        ]
        if let answer = outcome.answer { metadata["answer"] = "\(answer)" }
        if let error = outcome.error { metadata["error"] = "\(error)" }
        switch next {
        case .delivered: service.logger.debug("Webhook delivered.", metadata: metadata)
        case .retry: service.logger.info("Webhook not delivered; it will be tried again.", metadata: metadata)
        case .failed: service.logger.warning("Webhook not delivered; no further attempt.", metadata: metadata)
        }
        do {
            try await service.context.store.recordWebhookAttempt(attempt)
        } catch {
            // The claim lapses and the delivery is tried again: at least once.
            service.logger.error(
                "Could not record a webhook attempt; the delivery will be tried again.",
                metadata: metadata.merging(["storeError": "\(error)"]) { first, _ in first }
            )
        }
        return outcome.isDelivered
    }
}

/// What the worker's loop and its attempts share.
private final class DispatcherState: Sendable {
    let stopping = Atomic(false)
    let inFlight = Atomic(0)
    let rest: Mutex<EndpointRest>

    init(firstPause: TimeInterval) { rest = Mutex(EndpointRest(firstPause: firstPause)) }
}
