/// The audit log: append-only, in order of sequence number. Part of ``PasskeyStore``.
public protocol AuditStore: Sendable {
    /// Appends an event and returns it with its sequence number; writes `webhooks` to the outbox
    /// (``WebhookOutboxStore``) in the same transaction, pending and due at once: both or neither.
    @discardableResult
    func appendAuditEvent(_ event: AuditEvent, webhooks: [WebhookMessage]) async throws(StoreError) -> AuditEvent
    /// Events with a sequence number greater than `after`, oldest first, at most `limit`, optionally for one user.
    func auditEvents(after: Int64, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent]
    /// Events with a sequence number lower than `before` (every event when nil), newest first, at most `limit`,
    /// optionally for one user.
    func auditEvents(before: Int64?, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent]
}

extension AuditStore {
    /// Appends an event that no webhook endpoint receives.
    @discardableResult
    public func appendAuditEvent(_ event: AuditEvent) async throws(StoreError) -> AuditEvent {
        try await appendAuditEvent(event, webhooks: [])
    }
}
