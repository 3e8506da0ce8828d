public import Foundation

/// The webhook outbox: the events each configured endpoint is to receive, and how their delivery stands. Part of
/// ``PasskeyStore``.
///
/// Messages are written only by ``AuditStore/appendAuditEvent(_:webhooks:)``, in the transaction that appends their
/// audit event, so an event is in the outbox exactly when it is in the audit log. Deliveries are then claimed, tried
/// and recorded by the server's delivery worker, on any number of servers sharing the store: a claim is atomic (of
/// racing claims exactly one gets a delivery) and leases the delivery until `leaseUntil`, after which a claim whose
/// attempt was never recorded — its server stopped — lapses and the delivery is due again. Delivery is so at least
/// once, never by two servers at the same time.
public protocol WebhookOutboxStore: Sendable {
    /// Claims the pending deliveries due at `time` (oldest first, at most `limit`), apart from those to the endpoints
    /// named in `resting`: each gets its `attempts` counted and its `nextAttemptAt` moved to `leaseUntil`, and is
    /// returned as it is then.
    func claimWebhookDeliveries(
        at time: Date,
        leaseUntil: Date,
        limit: Int,
        excluding resting: [String]
    ) async throws(StoreError)
        -> [WebhookDelivery]
    /// Records an attempt's outcome, when the delivery is still pending with the attempt count its claim returned
    /// (a lapsed claim that another server took over records nothing); returns whether it recorded it.
    @discardableResult
    func recordWebhookAttempt(_ attempt: WebhookAttempt) async throws(StoreError) -> Bool
    /// An endpoint's deliveries, newest first, with an id lower than `before` (every one when nil), at most `limit`.
    func webhookDeliveries(endpoint: String, before: Int64?, limit: Int) async throws(StoreError) -> [WebhookDelivery]
    /// Makes a delivered or failed delivery pending again, due at `time`; returns it, or nil when no finished
    /// delivery has this id (a pending one is already on its way).
    func resendWebhookDelivery(id: Int64, at time: Date) async throws(StoreError) -> WebhookDelivery?
    /// Deletes up to `limit` delivered or failed deliveries written before `time`; returns how many.
    func purgeWebhookDeliveries(finishedBefore time: Date, limit: Int) async throws(StoreError) -> Int
}

extension WebhookOutboxStore {
    /// Claims the pending deliveries due at `time` to every endpoint.
    public func claimWebhookDeliveries(
        at time: Date,
        leaseUntil: Date,
        limit: Int
    ) async throws(StoreError) -> [WebhookDelivery] {
        try await claimWebhookDeliveries(at: time, leaseUntil: leaseUntil, limit: limit, excluding: [])
    }
}
