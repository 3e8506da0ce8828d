import Foundation
import Hummingbird
import PasskeyStorage

/// `/console/sessions`: the console's sessions signed in with an API key (break-glass), which belong to no user's
/// page, listed newest first and ended one by one.
extension WebPages {
    func registerConsoleSessions(on router: Router<PasskeyRequestContext>) {
        router.get("/console/sessions") { request, context in
            try await page(request, context) { call throws(APIError) in
                _ = try call.operatorName()
                let from = max(0, call.query("from").flatMap(Int.init) ?? 0)
                let page = try await service.webSessions.webSessions(
                    userID: nil,
                    offset: from,
                    limit: Self.sessionsPerPage + 1
                )
                let sessions: [[String: Any]] = page.prefix(Self.sessionsPerPage).map {
                    [:] + [
                        "sessionId": $0.id, "operator": $0.operatorName, "created": Self.readable($0.createdAt),
                        "expires": Self.readable($0.expiresAt), "clientIP": $0.clientIP ?? "unknown",
                    ]
                }
                return templates.page(
                    "console-sessions",
                    consoleValues(call) + [
                        "sessions": sessions,
                        "notice": call.query("done") == "ended" ? "Signed out." : nil,
                        "newerURL": from > 0 ? "/console/sessions?from=\(max(0, from - Self.sessionsPerPage))" : nil,
                        "olderURL": page.count > Self.sessionsPerPage
                            ? "/console/sessions?from=\(from + Self.sessionsPerPage)" : nil,
                    ]
                )
            }
        }
        router.post("/console/sessions/{sessionId}/end") { request, context in
            try await page(request, context) { call throws(APIError) in
                let name = try call.operatorName()
                let id = call.context.parameters.get("sessionId") ?? ""
                guard id.utf8.count <= 128,
                    try await service.webSessions.end(id: id)
                else {
                    throw APIError.notFound("No session \(id); it may have ended already.")
                }
                await service.webSessions.audit(
                    .webSessionEnded,
                    by: call.caller("operator:\(name)"),
                    userID: nil,
                    subject: id,
                    details: ["ended": "1"]
                )
                return Self.redirect(call.signedIn?.id == id ? "/console" : "/console/sessions?done=ended")
            }
        }
    }
}
