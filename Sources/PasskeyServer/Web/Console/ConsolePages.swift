import Foundation
import Hummingbird
import PasskeyStorage
import WebAuthn

/// `/console`: the operator console — users with search and paging, one user's passkeys and sessions with revoke
/// and sign-out, and the audit log. Closed until an operator signs in: with their own passkey when the
/// configuration names them in `web.operators` (audited as `operator:user:<id>`), or with one of the server's
/// backend API keys that grants the `console` scope as a break-glass (audited as `operator:<key name>`). The console's session is its own, apart
/// from the demo's, and lasts an hour at most.
extension WebPages {
    /// Failed console sign-ins allowed per client IP and minute, counted in the store for all server processes:
    /// wrong API keys and passkey sign-ins that did not succeed, together.
    static let consoleSignInAttempts = 10

    /// Sessions listed on one page of a user's page (and of the break-glass sessions).
    static let sessionsPerPage = 20

    func consoleSignInLimit(_ call: WebCall) -> FailureLimit {
        FailureLimit.consoleSignIns(clientIP: call.context.clientIP, limit: Self.consoleSignInAttempts, window: 60)
    }

    func registerConsole(on router: Router<PasskeyRequestContext>) {
        router.get("/console") { request, context in
            try await page(request, context) { call throws(APIError) in
                guard call.signedIn?.operatorName != nil else { return consoleSignInPage(call) }
                return try await usersPage(call)
            }
        }
        router.post("/console/sign-in") { request, context in
            try await page(request, context) { call throws(APIError) in
                let limit = consoleSignInLimit(call)
                try await service.webSessions.countAttempt(limit)
                guard let key = service.apiKey(for: call.form["apiKey"] ?? "") else {
                    return consoleSignInPage(
                        call,
                        problem: "That is not one of this server's API keys.",
                        status: .unauthorized
                    )
                }
                guard key.grants(.console) else {
                    return consoleSignInPage(
                        call,
                        problem:
                            "That API key does not grant the console scope: sign in with a key whose scopes include \"console\" (or \"*\").",
                        status: .forbidden
                    )
                }
                let name = key.name
                await service.webSessions.releaseAttempt(limit)
                try await signIn(&call, userID: nil, operatorName: name)
                await service.webSessions.audit(
                    .consoleSignedIn,
                    by: call.caller("operator:\(name)"),
                    userID: nil,
                    subject: nil
                )
                return Self.redirect("/console")
            }
        }
        router.post("/console/sign-in/passkey") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                guard !service.configuration.web.operators.isEmpty else { throw APIError.operatorRequired }
                // Counted as the API key's sign-ins are, per client address; given back when the sign-in succeeds.
                try await service.webSessions.countAttempt(consoleSignInLimit(call))
                let session = try await service.signIn.create(
                    CreateAuthenticationRequest(userId: nil, mode: nil, action: "console.sign-in", transaction: nil),
                    requireUserVerification: true,
                    by: call.caller("web:console")
                )
                call.session.pendingFlowID = session.biometricPasskeySessionId
                return JSONBody.response(session, status: .created)
            }
        }
        router.post("/console/sign-in/passkey/finish") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let result = try await redeemPendingSignIn(&call, as: "web:console")
                try await requireConsolePasskey(result)
                await service.webSessions.releaseAttempt(consoleSignInLimit(call))
                let name = "user:\(result.userId)"
                try await signIn(&call, userID: result.userId, operatorName: name, credentialID: result.credentialId)
                await service.webSessions.audit(
                    .consoleSignedIn,
                    by: call.caller("operator:\(name)"),
                    userID: nil,
                    subject: nil
                )
                return JSONBody.response(Redirect(redirect: "/console"))
            }
        }
        router.post("/console/sign-out") { request, context in
            try await page(request, context) { call throws(APIError) in
                try await endSession(&call)
                return Self.redirect("/console")
            }
        }
        router.get("/console/users/{userId}") { request, context in
            try await page(request, context) { call throws(APIError) in
                _ = try call.operatorName()
                return try await userPage(call, userID: call.context.parameters.get("userId") ?? "")
            }
        }
        router.post("/console/credentials/{credentialId}/revoke") { request, context in
            try await page(request, context) { call throws(APIError) in
                let name = try call.operatorName()
                let credential = try await service.accounts.credential(
                    id: call.context.parameters.get("credentialId") ?? ""
                )
                try await service.accounts.revokeCredential(
                    id: credential.credentialId,
                    by: call.caller("operator:\(name)")
                )
                return Self.redirect("/console/users/\(credential.userId)?done=revoked")
            }
        }
        router.post("/console/users/{userId}/sessions/end") { request, context in
            try await page(request, context) { call throws(APIError) in
                let name = try call.operatorName()
                let userID = call.context.parameters.get("userId") ?? ""
                try Validation.userID(userID)
                try await service.webSessions.endWebSessions(
                    userID: userID,
                    sessionID: Self.nonEmpty(call.form["sessionId"]),
                    by: call.caller("operator:\(name)")
                )
                return Self.redirect("/console/users/\(userID)?done=ended")
            }
        }
        router.get("/console/audit") { request, context in
            try await page(request, context) { call throws(APIError) in
                _ = try call.operatorName()
                return try await auditPage(call)
            }
        }
    }

    private func consoleSignInPage(
        _ call: WebCall,
        problem: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        templates.page(
            "console-sign-in",
            layoutValues(call) + ["problem": problem, "passkeys": !service.configuration.web.operators.isEmpty],
            status: status
        )
    }

    func consoleValues(_ call: WebCall) -> [String: Any] {
        layoutValues(call) + ["operatorName": call.signedIn?.operatorName]
    }

    private func usersPage(_ call: WebCall) async throws(APIError) -> Response {
        let query = Self.nonEmpty(call.query("q"))
        let page: AccountFlow.UserPage
        do {
            page = try await service.accounts.users(
                matching: query,
                after: call.query("after"),
                limit: 25,
                order: .name
            )
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
        guard let user = try await service.accounts.user(id: userID) else {
            throw APIError.notFound("No user \(userID).")
        }
        let records = try await service.accounts.credentialRecords(userID: userID)
        let consolePasskeys = records.filter(\.consoleEnrolled).map { Base64URL.encode($0.id) }
        let passkeyNames = Dictionary(records.map { ($0.id, $0.name) }) { first, _ in first }
        let credentials: [[String: Any]] = try await service.accounts.listCredentials(userID: userID).credentials.map {
            [
                "credentialId": $0.credentialId, "name": $0.name, "kind": $0.kind,
                "authenticator": AuthenticatorNames.label(aaguid: $0.aaguid, name: $0.authenticatorName),
                "attestation": AuthenticatorNames.attestationLabel(
                    format: $0.attestationFormat,
                    type: $0.attestationType,
                    trusted: $0.attestationTrusted
                ),
                "created": Self.readable($0.createdAt), "lastUsed": $0.lastUsedAt.map(Self.readable) ?? "Never",
                "console": consolePasskeys.contains($0.credentialId),
            ]
        }
        let from = max(0, call.query("sessionsFrom").flatMap(Int.init) ?? 0)
        let page = try await service.webSessions.webSessions(
            userID: userID,
            offset: from,
            limit: Self.sessionsPerPage + 1
        )
        let sessions: [[String: Any]] = page.prefix(Self.sessionsPerPage).map {
            [:] + [
                "sessionId": $0.id, "kind": $0.kind == .console ? "Operator console" : "Account pages",
                "created": Self.readable($0.createdAt), "expires": Self.readable($0.expiresAt),
                "clientIP": $0.clientIP ?? "unknown",
                "passkey": $0.credentialID.map { passkeyNames[$0] ?? "Removed passkey" } ?? "none",
            ]
        }
        return templates.page(
            "console-user",
            consoleValues(call) + [
                "userID": user.id, "userName": user.name, "displayName": user.displayName,
                "created": Self.readable(user.createdAt), "credentials": credentials, "sessions": sessions,
                "hasSessions": !sessions.isEmpty, "recoveryUnavailable": recoveryUnavailable,
                "notice": call.query("done").flatMap {
                    ["revoked": "Passkey revoked.", "ended": "Signed out.", "enrolled": "Console passkey added."][$0]
                },
                "canEnrol": isOperator(userID) && (call.signedIn?.userID == nil || call.signedIn?.userID == userID),
                "newerSessionsURL": from > 0
                    ? "/console/users/\(userID)?sessionsFrom=\(max(0, from - Self.sessionsPerPage))" : nil,
                "olderSessionsURL": page.count > Self.sessionsPerPage
                    ? "/console/users/\(userID)?sessionsFrom=\(from + Self.sessionsPerPage)" : nil,
            ]
        )
    }

    /// Why the console cannot start a recovery on this server, and what to start it with; nil when it can.
    var recoveryUnavailable: String? {
        guard service.configuration.recovery.enabled else {
            return "Account recovery is turned off on this server: set recovery.enabled to true in its configuration."
        }
        guard service.configuration.identityVerification.provider == .disabled else { return nil }
        return "Recovery verifies the person's identity, and this server has no identity verification: start it with "
            + "passkeys serve --identity-verification simulated (development and demos only), or set "
            + "identityVerification.provider to webhook in its configuration."
    }

    /// The audit log, newest first, 50 to a page; `user` keeps the events of the user with that id or, failing
    /// that, that user name (`userId`, as older links have it, is read the same).
    private func auditPage(_ call: WebCall) async throws(APIError) -> Response {
        let user = Self.nonEmpty(call.query("user") ?? call.query("userId"))
        let page: AccountFlow.AuditPage
        var userID = user
        do {
            if let user, try await service.accounts.user(id: user) == nil {
                userID = try await service.accounts.users(named: user).users.first?.userID ?? user
            }
            page = try await service.accounts.auditEvents(
                order: "newest",
                after: nil,
                before: call.query("before"),
                limit: "50",
                userID: userID
            )
        } catch  where error.status == .badRequest {
            return templates.page(
                "console-audit",
                consoleValues(call) + ["user": user, "problem": error.message],
                status: .badRequest
            )
        }
        let events: [[String: Any]] = page.events.map {
            [:] + [
                "sequence": String($0.sequence), "time": Self.readable($0.time), "action": $0.action,
                "actor": $0.actor, "userID": $0.userId, "subject": $0.subject,
                "details": $0.details.sorted { $0.key < $1.key }.map { ["key": $0.key, "value": $0.value] },
                "hasDetails": !$0.details.isEmpty, "detailCount": String($0.details.count),
            ]
        }
        let filter = user.map { "user=" + Self.queryEscaped($0) + "&" } ?? ""
        return templates.page(
            "console-audit",
            consoleValues(call) + [
                "user": user, "events": events,
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
