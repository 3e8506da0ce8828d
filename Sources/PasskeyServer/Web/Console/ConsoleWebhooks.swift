import Foundation
import Hummingbird
import PasskeyStorage

/// `/console/webhooks`: the configured webhook endpoints, each endpoint's deliveries (status, attempts, last answer,
/// next try) newest first, and a finished delivery sent again.
extension WebPages {
    static let deliveriesPerPage = 25

    func registerConsoleWebhooks(on router: Router<PasskeyRequestContext>) {
        router.get("/console/webhooks") { request, context in
            try await page(request, context) { call throws(APIError) in
                _ = try call.operatorName()
                let endpoints: [[String: Any]] = service.webhooks.endpoints.map {
                    ["name": $0.name, "url": $0.url, "events": $0.events.joined(separator: ", ")]
                }
                return templates.page("console-webhooks", consoleValues(call) + ["endpoints": endpoints])
            }
        }
        router.get("/console/webhooks/{endpoint}") { request, context in
            try await page(request, context) { call throws(APIError) in
                _ = try call.operatorName()
                let name = call.context.parameters.get("endpoint") ?? ""
                let endpoint = try service.webhooks.endpoint(named: name)
                let before = call.query("before").flatMap(Int64.init)
                let page = try await service.webhooks.deliveries(
                    endpoint: name,
                    before: before,
                    limit: Self.deliveriesPerPage + 1
                )
                let shown = page.prefix(Self.deliveriesPerPage)
                let deliveries: [[String: Any]] = shown.map { delivery in
                    [
                        "id": "\(delivery.id)", "type": delivery.message.eventType, "messageId": delivery.message.id,
                        "created": Self.readable(delivery.message.createdAt), "status": delivery.status.rawValue,
                        "attempts": "\(delivery.attempts)",
                        "lastAnswer": delivery.lastAnswer.map { "\($0)" } ?? delivery.lastError ?? "—",
                        "nextTry": delivery.status == .pending ? delivery.nextAttemptAt.map(Self.readable) ?? "—" : "—",
                        "finished": delivery.status != .pending,
                    ]
                }
                return templates.page(
                    "console-webhook-deliveries",
                    consoleValues(call) + [
                        "endpoint": endpoint.name, "url": endpoint.url, "deliveries": deliveries,
                        "notice": call.query("done") == "resent" ? "The delivery is queued to be sent again." : nil,
                        "newestURL": before == nil ? nil : "/console/webhooks/\(endpoint.name)",
                        "olderURL": page.count > Self.deliveriesPerPage
                            ? shown.last.map { "/console/webhooks/\(endpoint.name)?before=\($0.id)" } : nil,
                    ]
                )
            }
        }
        router.post("/console/webhooks/{endpoint}/deliveries/{id}/resend") { request, context in
            try await page(request, context) { call throws(APIError) in
                let operatorName = try call.operatorName()
                let name = call.context.parameters.get("endpoint") ?? ""
                guard let id = call.context.parameters.get("id").flatMap(Int64.init) else {
                    throw APIError.notFound("A delivery is named by its number.")
                }
                _ = try await service.webhooks.resend(
                    endpoint: name,
                    id: id,
                    by: call.caller("operator:\(operatorName)")
                )
                return Self.redirect("/console/webhooks/\(name)?done=resent")
            }
        }
    }
}
