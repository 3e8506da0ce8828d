extension MemoryPasskeyStore: AuditStore {
    public func appendAuditEvent(_ event: AuditEvent, webhooks: [WebhookMessage]) throws(StoreError) -> AuditEvent {
        try checkNewWebhooks(webhooks)
        var event = event
        lastAuditSequence += 1
        event.sequence = lastAuditSequence
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
}
