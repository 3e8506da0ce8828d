import Foundation
import PasskeyStorage

/// Which configured endpoints receive an audited change, as outbox messages: ``ServiceFlow/audit(_:by:userID:subject:details:)``
/// hands them to the store's audit append, which writes them in the audit event's transaction. Then it rings the
/// ``doorbell``, so this process's ``WebhookDispatcher`` tries them at once instead of at its next poll.
struct WebhookOutbox: Sendable {
    let endpoints: [ServerConfiguration.Webhooks.Endpoint]
    let doorbell = Doorbell()

    /// The messages of `audit`'s events (``WebhookEvent/events(for:)``) for every endpoint subscribed to each: one
    /// message id and one body an event, whichever endpoints it goes to.
    func messages(for audit: AuditEvent) -> [WebhookMessage] {
        guard !endpoints.isEmpty else { return [] }
        var messages: [WebhookMessage] = []
        for event in WebhookEvent.events(for: audit) {
            let receivers = endpoints.filter { $0.receives(event.type) }
            guard !receivers.isEmpty, let body = Self.body(of: event, at: audit.time) else { continue }
            let id = Secrets.identifier(prefix: "msg_")
            for endpoint in receivers {
                messages.append(
                    WebhookMessage(
                        id: id,
                        endpoint: endpoint.name,
                        eventType: event.type.rawValue,
                        payload: body,
                        createdAt: audit.time
                    )
                )
            }
        }
        return messages
    }

    /// The Standard Webhooks body: `{"data": {…}, "timestamp": "<ISO 8601>", "type": "…"}`.
    static func body(of event: WebhookEvent, at time: Date) -> String? {
        struct Body: Encodable {
            let type: String
            let timestamp: Date
            let data: [String: WebhookEvent.Value]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(Body(type: event.type.rawValue, timestamp: time, data: event.data)) else {
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }
}
