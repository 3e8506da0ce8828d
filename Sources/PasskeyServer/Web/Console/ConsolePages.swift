import Foundation
import Hummingbird
import PasskeyStorage

/// `/console`: the operator console — users with search and paging, one user's passkeys with revoke, and the
/// audit log. Closed until an operator signs in with one of the server's backend API keys; what they do is
/// audited as `operator:<key name>`.
extension WebPages {
    /// How long a console sign-in lasts, at most.
    static let consoleLifetime = 3600
    /// Failed console sign-ins allowed per client IP and minute, counted in the store for all server processes.
    static let consoleSignInAttempts = 10

    func registerConsole(on router: Router<PasskeyRequestContext>) {
        router.get("/console") { request, context in
            try await page(request, context) { call throws(APIError) in
                guard call.session.operatorName != nil else { return consoleSignInPage(call) }
                return try await usersPage(call)
            }
        }
        router.post("/console/sign-in") { request, context in
            try await page(request, context) { call throws(APIError) in
                let limit = FailureLimit.consoleSignIns(
                    clientIP: call.context.clientIP,
                    limit: Self.consoleSignInAttempts,
                    window: 60
                )
                try await service.countAttempt(limit)
                guard let name = service.apiKeyName(for: call.form["apiKey"] ?? "") else {
                    return consoleSignInPage(
                        call,
                        problem: "That is not one of this server's API keys.",
                        status: .unauthorized
                    )
                }
                await service.releaseAttempt(limit)
                var session = WebSession.anonymous(lifetime: min(cookies.lifetime, Self.consoleLifetime), now: call.now)
                session.userID = call.session.userID
                session.userName = call.session.userName
                session.operatorName = name
                call.session = session
                await service.audit("console.signed-in", by: call.caller("operator:\(name)"), userID: nil, subject: nil)
                return Self.redirect("/console")
            }
        }
        router.post("/console/sign-out") { request, context in
            try await page(request, context) { call throws(APIError) in
                call.session.operatorName = nil
                return Self.redirect("/console")
            }
        }
        router.get("/console/users/{userId}") { request, context in
            try await page(request, context) { call throws(APIError) in
                _ = try operatorName(call)
                return try await userPage(call, userID: call.context.parameters.get("userId") ?? "")
            }
        }
        router.post("/console/credentials/{credentialId}/revoke") { request, context in
            try await page(request, context) { call throws(APIError) in
                let name = try operatorName(call)
                let credential = try await service.credential(id: call.context.parameters.get("credentialId") ?? "")
                try await service.revokeCredential(id: credential.credentialId, by: call.caller("operator:\(name)"))
                return Self.redirect("/console/users/\(credential.userId)?done=revoked")
            }
        }
        router.get("/console/audit") { request, context in
            try await page(request, context) { call throws(APIError) in
                _ = try operatorName(call)
                return try await auditPage(call)
            }
        }
    }

    private func operatorName(_ call: WebCall) throws(APIError) -> String {
        guard let name = call.session.operatorName else { throw APIError.signInRequired }
        return name
    }

    private func consoleSignInPage(
        _ call: WebCall,
        problem: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        templates.page("console-sign-in", layoutValues(call) + ["problem": problem], status: status)
    }

    private func consoleValues(_ call: WebCall) -> [String: Any] {
        layoutValues(call) + ["operatorName": call.session.operatorName]
    }

    private func usersPage(_ call: WebCall) async throws(APIError) -> Response {
        let query = Self.nonEmpty(call.query("q"))
        let page: PasskeyService.UserPage
        do {
            page = try await service.users(matching: query, after: call.query("after"), limit: 25)
        } catch  where error.status == .badRequest {
            return templates.page(
                "console-users",
                consoleValues(call) + ["query": query, "problem": error.message],
                status: .badRequest
            )
        }
        let users: [[String: Any]] = page.users.map { user in
            [
                "userID": user.userID, "userName": user.userName, "displayName": user.displayName,
                "activeCredentials": user.activeCredentials, "created": Self.readable(user.createdAt),
            ]
        }
        let search = query.map { "q=" + Self.queryEscaped($0) + "&" } ?? ""
        return templates.page(
            "console-users",
            consoleValues(call) + [
                "query": query, "users": users,
                "nextURL": page.nextCursor.map { "/console?" + search + "after=" + Self.queryEscaped($0) },
                "firstURL": call.query("after") != nil ? "/console?" + search : nil,
            ]
        )
    }

    private func userPage(_ call: WebCall, userID: String) async throws(APIError) -> Response {
        guard let user = try await service.storage({ try await service.store.user(id: userID) }) else {
            throw APIError.notFound("No user \(userID).")
        }
        let credentials: [[String: Any]] = try await service.listCredentials(userID: userID).credentials.map {
            [
                "credentialId": $0.credentialId, "name": $0.name, "kind": $0.kind,
                "authenticator": $0.authenticatorName ?? $0.aaguid,
                "attestation":
                    "\($0.attestationFormat) (\($0.attestationType)\($0.attestationTrusted ? ", trusted" : ""))",
                "created": Self.readable($0.createdAt), "lastUsed": $0.lastUsedAt.map(Self.readable) ?? "Never",
            ]
        }
        return templates.page(
            "console-user",
            consoleValues(call) + [
                "userID": user.id, "userName": user.name, "displayName": user.displayName,
                "created": Self.readable(user.createdAt), "credentials": credentials,
                "notice": call.query("done") == "revoked" ? "Passkey revoked." : nil,
            ]
        )
    }

    private func auditPage(_ call: WebCall) async throws(APIError) -> Response {
        let userID = Self.nonEmpty(call.query("userId"))
        let page: PasskeyService.AuditPage
        do {
            page = try await service.auditEvents(
                order: "newest",
                after: nil,
                before: call.query("before"),
                limit: "50",
                userID: userID
            )
        } catch  where error.status == .badRequest {
            return templates.page(
                "console-audit",
                consoleValues(call) + ["userID": userID, "problem": error.message],
                status: .badRequest
            )
        }
        let events: [[String: Any]] = page.events.map {
            [:] + [
                "sequence": String($0.sequence), "time": Self.readable($0.time), "action": $0.action,
                "actor": $0.actor, "userID": $0.userId, "subject": $0.subject,
                "details": $0.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                    separator: ", "
                ),
            ]
        }
        let filter = userID.map { "userId=" + Self.queryEscaped($0) + "&" } ?? ""
        return templates.page(
            "console-audit",
            consoleValues(call) + [
                "userID": userID, "events": events,
                "olderURL": page.nextCursor.map { "/console/audit?" + filter + "before=" + $0 },
                "newestURL": call.query("before") != nil ? "/console/audit?" + filter : nil,
            ]
        )
    }

    static func queryEscaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? ""
    }
}
