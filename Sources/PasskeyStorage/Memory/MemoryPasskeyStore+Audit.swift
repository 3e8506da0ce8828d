extension MemoryPasskeyStore: AuditStore {
    public func appendAuditEvent(_ event: AuditEvent, webhooks: [WebhookMessage]) throws(StoreError) -> AuditEvent {
        try checkNewWebhooks(webhooks)
        let event = AuditChain.link(event, after: auditTail.appendHead)
        audit.append(event)
        queueWebhooks(webhooks)
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
