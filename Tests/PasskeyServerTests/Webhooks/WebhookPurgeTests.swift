import Foundation
import PasskeyStorage
import PasskeyTesting
import Testing

@testable import PasskeyServer

/// The background purge deletes finished webhook deliveries with the audit log's retention, never pending ones.
struct WebhookPurgeTests {
    @Test("delivered and failed deliveries go retention.auditDays after their event; pending ones stay")
    func retention() async throws {
        let server = try TestServer { $0.retention.auditDays = 30 }
        let store = server.store
        let purge = StorePurge(service: server.service)
        let messages = (0..<3).map {
            WebhookMessage(
                id: "msg_\($0)",
                endpoint: "crm",
                eventType: "user.deleted",
                payload: "{}",
                createdAt: server.clock.now
            )
        }
        try await store.appendAuditEvent(
            AuditEvent(time: server.clock.now, actor: "system", action: "user.deleted"),
            webhooks: messages
        )
        let claimed = try await store.claimWebhookDeliveries(
            at: server.clock.now,
            leaseUntil: server.clock.now + 60,
            limit: 3
        )
        for (delivery, outcome) in zip(claimed, [WebhookAttempt.Outcome.delivered, .failed]) {
            try await store.recordWebhookAttempt(
                WebhookAttempt(
                    deliveryID: delivery.id,
                    attempt: delivery.attempts,
                    at: server.clock.now,
                    answer: 500,
                    error: nil,
                    outcome: outcome
                )
            )
        }
        server.clock.advance(by: 30 * 86_400 - 1)
        _ = await purge.round()
        #expect(try await store.webhookDeliveries(endpoint: "crm", before: nil, limit: 10).count == 3)
        server.clock.advance(by: 2)
        _ = await purge.round()
        let left = try await store.webhookDeliveries(endpoint: "crm", before: nil, limit: 10)
        #expect(left.map(\.message.id) == ["msg_2"], "the pending one stays")
        #expect(server.logs.all.contains { $0.contains("Purged what is over.") && $0.contains("webhookDeliveries=2") })
    }
}
