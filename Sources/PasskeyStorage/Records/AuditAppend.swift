/// An audit event and the webhook messages it sends, to be appended by the write that it records: that write's
/// `audit` parameter (see ``PasskeyStore``, "Audited writes"). ``AuditStore/appendAuditEvent(_:webhooks:)`` appends one
/// on its own.
public struct AuditAppend: Sendable, Hashable {
    public let event: AuditEvent
    public let webhooks: [WebhookMessage]

    public init(event: AuditEvent, webhooks: [WebhookMessage] = []) {
        self.event = event
        self.webhooks = webhooks
    }
}
