import Foundation
import PasskeyStorage

/// The webhook deliveries as operators see them in the console: each configured endpoint's deliveries, and sending
/// a finished one again. Events reach the outbox through ``ServiceFlow/audit(_:by:userID:subject:details:)``, not here;
/// the ``WebhookDispatcher`` delivers them.
struct WebhooksFlow: ServiceFlow {
    let context: FlowContext

    /// The configured endpoints (their secrets stay in the configuration).
    var endpoints: [ServerConfiguration.Webhooks.Endpoint] { configuration.webhooks.endpoints }

    /// The configured endpoint named `name`, or `NOT_FOUND`.
    func endpoint(named name: String) throws(APIError) -> ServerConfiguration.Webhooks.Endpoint {
        guard let endpoint = endpoints.first(where: { $0.name == name }) else {
            throw APIError.notFound("No webhook endpoint is named \(name).")
        }
        return endpoint
    }

    /// The endpoint's deliveries, newest first, with an id lower than `before`.
    func deliveries(endpoint name: String, before: Int64?, limit: Int) async throws(APIError) -> [WebhookDelivery] {
        let endpoint = try endpoint(named: name)
        return try await storage {
            try await store.webhookDeliveries(endpoint: endpoint.name, before: before, limit: limit)
        }
    }

    /// Makes the endpoint's delivered or failed delivery `id` pending again, due at once; audited.
    func resend(endpoint name: String, id: Int64, by caller: Caller) async throws(APIError) -> WebhookDelivery {
        let endpoint = try endpoint(named: name)
        guard
            let resent = try await storage({ try await store.resendWebhookDelivery(id: id, at: now()) }),
            resent.message.endpoint == endpoint.name
        else {
            throw APIError.notFound(
                "No delivered or failed delivery \(id) to \(endpoint.name): a pending one is on its way already."
            )
        }
        context.webhooks.doorbell.ring()
        await audit(
            .webhookResent,
            by: caller,
            userID: nil,
            subject: resent.message.id,
            details: ["endpoint": endpoint.name, "type": resent.message.eventType, "delivery": "\(id)"]
        )
        return resent
    }
}
