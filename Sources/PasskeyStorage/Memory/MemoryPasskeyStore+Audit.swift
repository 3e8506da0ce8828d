extension MemoryPasskeyStore: AuditStore {
    public func appendAuditEvent(_ event: AuditEvent, webhooks: [WebhookMessage]) throws(StoreError) -> AuditEvent {
        try checkNewWebhooks(webhooks)
        return append(AuditAppend(event: event, webhooks: webhooks))
    }

    /// An audited write (``PasskeyStore``): the append's messages checked before `write` changes anything, then the
    /// event appended after it when the write `tookEffect`, in the same step of the actor.
    func auditedWrite<T>(
        _ append: AuditAppend?,
        if tookEffect: (T) -> Bool = { _ in true },
        _ write: () throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try checkNewWebhooks(append?.webhooks ?? [])
        let result = try write()
        if let append, tookEffect(result) { self.append(append) }
        return result
    }

    @discardableResult
    private func append(_ append: AuditAppend) -> AuditEvent {
        let event = AuditChain.link(append.event, after: auditTail.appendHead)
        audit.append(event)
        queueWebhooks(append.webhooks)
        return event
    }

    public func auditEvents(after: Int64, limit: Int, userID: String?) -> [AuditEvent] {
        Array(audit.lazy.filter { $0.sequence > after && (userID == nil || $0.userID == userID) }.prefix(limit))
    }

    public func auditEvents(before: Int64?, limit: Int, userID: String?) -> [AuditEvent] {
        let before = before ?? .max
        return Array(
            audit.reversed().lazy.filter { $0.sequence < before && (userID == nil || $0.userID == userID) }
                .prefix(max(0, limit))
        )
    }

    public func auditChainHead() -> AuditChainHead? {
        auditTail.signableHead
    }

    private var auditTail: AuditChainTail {
        AuditChainTail(
            lastSequence: audit.last?.sequence,
            lastHash: audit.last?.hash,
            newestCheckpoint: auditCheckpoints.last?.head
        )
    }

    @discardableResult
    public func appendAuditCheckpoint(_ checkpoint: AuditCheckpoint) -> Bool {
        guard !auditCheckpoints.contains(where: { $0.sequence == checkpoint.sequence }) else { return false }
        auditCheckpoints.append(checkpoint)
        auditCheckpoints.sort { $0.sequence < $1.sequence }
        return true
    }

    public func auditCheckpoints(after: Int64, limit: Int) -> [AuditCheckpoint] {
        Array(auditCheckpoints.lazy.filter { $0.sequence > after }.prefix(max(0, limit)))
    }
}
