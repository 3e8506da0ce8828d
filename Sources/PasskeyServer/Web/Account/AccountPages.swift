import Foundation
import Hummingbird
import PasskeyStorage
import WebAuthn

/// `/account`: the signed-in user's passkeys — rename, delete after a confirmation, add another — and sign-out.
/// Renaming and deleting are plain forms, so they work without JavaScript.
extension WebPages {
    func registerAccount(on router: Router<PasskeyRequestContext>) {
        router.get("/account") { request, context in
            try await page(request, context) { call throws(APIError) in
                try await accountPage(call)
            }
        }
        router.post("/account/passkeys/{credentialId}/rename") { request, context in
            try await page(request, context) { call throws(APIError) in
                let credential = try await ownCredential(call)
                do throws(APIError) {
                    _ = try await service.accounts.renameCredential(
                        id: credential.credentialId,
                        request: .init(name: call.form["name"] ?? ""),
                        by: call.caller("user:\(credential.userId)")
                    )
                } catch {
                    return try await accountPage(call, problem: error.message, status: error.status)
                }
                return Self.redirect("/account?done=renamed")
            }
        }
        router.get("/account/passkeys/{credentialId}/delete") { request, context in
            try await page(request, context) { call throws(APIError) in
                let credential = try await ownCredential(call)
                let count = try await service.accounts.listCredentials(userID: credential.userId).credentials.count
                return templates.page(
                    "confirm-delete",
                    layoutValues(call) + [
                        "name": credential.name, "credentialId": credential.credentialId, "isLast": count == 1,
                    ]
                )
            }
        }
        router.post("/account/passkeys/{credentialId}/delete") { request, context in
            try await page(request, context) { call throws(APIError) in
                let credential = try await ownCredential(call)
                try await service.accounts.revokeCredential(
                    id: credential.credentialId,
                    by: call.caller("user:\(credential.userId)")
                )
                // The session signed in with that passkey ended with it.
                let signedInWithIt = call.signedIn?.credentialID.map(Base64URL.encode) == credential.credentialId
                // The next page tells the browser's passkey provider that this passkey is gone (WebAuthn signals).
                let gone = "&credential=" + credential.credentialId
                return Self.redirect(
                    signedInWithIt ? "/?done=deleted-signed-out" + gone : "/account?done=deleted" + gone
                )
            }
        }
        router.post("/sign-out") { request, context in
            try await page(request, context) { call throws(APIError) in
                try await endSession(&call)
                return Self.redirect("/")
            }
        }
    }

    static let notices = [
        "welcome": "Your account is ready: you signed up with a passkey.",
        "added": "Passkey added.", "renamed": "Passkey renamed.", "deleted": "Passkey deleted.",
    ]

    private func accountPage(
        _ call: WebCall,
        problem: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws(APIError) -> Response {
        let user = try await signedInUser(call)
        let credentials: [CredentialResponse]
        do {
            credentials = try await service.accounts.listCredentials(userID: user.id).credentials
        } catch  where error.status == .notFound {
            // The user was deleted (through the API or the console) while signed in.
            throw APIError.signInRequired
        }
        let passkeys: [[String: Any]] = credentials.map { credential in
            [:] + [
                "credentialId": credential.credentialId, "name": credential.name,
                "kindLabel": credential.kind == "synced" ? "Synced" : "Device-bound",
                "authenticator": AuthenticatorNames.label(
                    aaguid: credential.aaguid,
                    name: credential.authenticatorName
                ),
                "createdISO": Self.iso(credential.createdAt), "created": Self.readable(credential.createdAt),
                "lastUsedISO": credential.lastUsedAt.map(Self.iso),
                "lastUsed": credential.lastUsedAt.map(Self.readable),
            ]
        }
        return templates.page(
            "account",
            layoutValues(call) + [
                "userName": user.name, "passkeys": passkeys, "userHandle": Base64URL.encode(user.handle),
                "displayName": user.displayName, "operatorAccount": isOperator(user.id),
                "unknownCredential": call.query("done") == "deleted" ? Self.credentialIDQuery(call) : nil,
                "notice": (problem == nil ? call.query("done").flatMap { Self.notices[$0] } : nil),
                "problem": problem,
            ],
            status: status
        )
    }

    /// The credential named in the path, when it belongs to the signed-in user (else "not found", so that
    /// nobody learns about other users' credentials).
    private func ownCredential(_ call: WebCall) async throws(APIError) -> CredentialResponse {
        let userID = try call.signedInUserID()
        let id = call.context.parameters.get("credentialId") ?? ""
        guard let credential = try? await service.accounts.credential(id: id), credential.userId == userID,
            credential.status == "active"
        else {
            throw APIError.credentialNotFound
        }
        return credential
    }

    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }

    static func readable(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: .gmt)) + " UTC"
    }
}
