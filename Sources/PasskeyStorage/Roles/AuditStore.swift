/// The audit log: append-only, in order of sequence number, each event linked to the one before it by a hash chain
/// (``AuditChain``), with signed checkpoints of the chain. Part of ``PasskeyStore``.
public protocol AuditStore: Sendable {
    /// Appends an event and returns it as stored: linked to the chain's head with ``AuditChain/link(_:after:)``
    /// (its sequence number the head's plus one, its time in whole milliseconds, its hashes), all while no other
    /// append of any process runs, so the chain has one head and no gaps. The head is the last event, or, when
    /// purging left none, the newest checkpoint; after events written before the chain existed, and in an empty log,
    /// the new event starts the chain (its sequence number still follows theirs).
    /// It writes `webhooks` to the outbox (``WebhookOutboxStore``) in the same transaction, pending and due at once:
    /// both or neither.
    @discardableResult
    func appendAuditEvent(_ event: AuditEvent, webhooks: [WebhookMessage]) async throws(StoreError) -> AuditEvent
    /// Events with a sequence number greater than `after`, oldest first, at most `limit`, optionally for one user.
    func auditEvents(after: Int64, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent]
    /// Events with a sequence number lower than `before` (every event when nil), newest first, at most `limit`,
    /// optionally for one user.
    func auditEvents(before: Int64?, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent]

    /// The head a checkpoint would sign now: the last event when it has a hash, else the newest checkpoint; nil when
    /// the chain has not started.
    func auditChainHead() async throws(StoreError) -> AuditChainHead?
    /// Keeps a checkpoint; false (and nothing kept) when one of its sequence number exists already, as when another
    /// server signed the same head first.
    @discardableResult
    func appendAuditCheckpoint(_ checkpoint: AuditCheckpoint) async throws(StoreError) -> Bool
    /// Checkpoints with a sequence number greater than `after`, oldest first, at most `limit`.
    func auditCheckpoints(after: Int64, limit: Int) async throws(StoreError) -> [AuditCheckpoint]
}

extension AuditStore {
    /// Appends an event that no webhook endpoint receives.
    @discardableResult
    public func appendAuditEvent(_ event: AuditEvent) async throws(StoreError) -> AuditEvent {
        try await appendAuditEvent(event, webhooks: [])
    }
}
