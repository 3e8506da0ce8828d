import Foundation
import Hummingbird
import PasskeyStorage
import QRCode
import WebAuthn

/// Account recovery in the pages (DESIGN §3 flow 5): an operator starts it from the console, which shows a one-time
/// link and its QR code; the link opens `/recover` on the person's new device, which verifies them, registers the
/// replacement passkey through the client API, and finalizes.
///
/// The server is its own integrator here, as in the demo: the page that registered the replacement finalizes the
/// recovery, proving it with the continuation token it was given for that registration — but only a recovery the
/// console started. One the integrator's backend started (`POST /v1/recoveries`) is the backend's to finalize.
extension WebPages {
    func registerRecovery(on router: Router<PasskeyRequestContext>) {
        router.post("/console/users/{userId}/recovery") { request, context in
            try await page(request, context) { call throws(APIError) in
                let name = try call.operatorName()
                let userID = call.context.parameters.get("userId") ?? ""
                if let reason = recoveryUnavailable {
                    return recoveryUnavailablePage(call, userID: userID, reason: reason)
                }
                let started = try await service.recovery.create(
                    CreateRecoveryRequest(userId: userID),
                    by: call.caller("operator:\(name)"),
                    starter: .console
                )
                return try await recoveryLinkPage(call, userID: userID, started: started)
            }
        }
        router.get("/recover") { request, context in
            try await page(request, context) { call throws(APIError) in
                templates.page("recover", layoutValues(call))
            }
        }
        router.post("/recover/finalize") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let body = try await JSONBody.decode(
                    FinalizeFromPage.self,
                    from: call.request,
                    limit: service.configuration.limits.maxRequestBodyBytes
                )
                let userID = try await requireReplacementRegistered(body)
                // The old passkeys' names, read before the finalize revokes them, for the page to say in words.
                let before = try await service.accounts.credentialRecords(userID: userID)
                let finalized = try await service.recovery.finalize(
                    id: body.recoveryAttemptId,
                    by: call.caller("recovery-page")
                )
                let names = finalized.revokedCredentialIds.map { id in
                    before.first { Base64URL.encode($0.id) == id }?.name ?? id
                }
                // Signed in with the new passkey, as the demo signs in its accounts (never an operator's).
                var signedIn = false
                if let user = try await service.accounts.user(id: userID),
                    user.isDemoAccount, !isOperator(user.id)
                {
                    try await signIn(&call, userID: user.id, credentialID: finalized.credential.credentialId)
                    signedIn = true
                }
                return JSONBody.response(
                    Finalized(
                        recoveryAttemptId: finalized.recoveryAttemptId,
                        credential: finalized.credential,
                        revokedCredentialIds: finalized.revokedCredentialIds,
                        revokedNames: names,
                        signedIn: signedIn
                    )
                )
            }
        }
    }

    /// The console's answer to Start recovery on a server that cannot start one: what to start the server with, and
    /// the way back to the user (`RECOVERY_NOT_SUPPORTED`, 403).
    private func recoveryUnavailablePage(_ call: WebCall, userID: String, reason: String) -> Response {
        templates.page(
            "message",
            consoleValues(call) + [
                "heading": "Recovery is not available on this server", "text": reason,
                "code": APIError.recoveryNotSupported.code.rawValue, "backURL": "/console/users/\(userID)",
                "backLabel": "Back to the user",
            ],
            status: .forbidden
        )
    }

    /// What `/recover/finalize` answers: the finalize's answer, the revoked passkeys' names, and whether this browser
    /// is now signed in.
    struct Finalized: Encodable, Sendable {
        let recoveryAttemptId: String
        let credential: CredentialResponse
        let revokedCredentialIds: [String]
        let revokedNames: [String]
        let signedIn: Bool
    }

    /// `{recoveryAttemptId, continuationToken}`: what `/recover` posts once its replacement passkey is registered.
    struct FinalizeFromPage: Decodable, Sendable {
        let recoveryAttemptId: String
        let continuationToken: String
    }

    /// Only the device that registered the replacement may finalize from the page
    /// (``RecoveryFlow/attemptFinalizableByDevice(id:continuationToken:)``).
    private func requireReplacementRegistered(_ body: FinalizeFromPage) async throws(APIError) -> String {
        try await service.recovery.attemptFinalizableByDevice(
            id: body.recoveryAttemptId,
            continuationToken: body.continuationToken
        ).userID
    }

    /// The one-time link (`/recover#<attempt>.<token>` on the first web origin) and its QR code.
    private func recoveryLinkPage(
        _ call: WebCall,
        userID: String,
        started: CreateRecoveryResponse
    ) async throws(APIError) -> Response {
        guard let user = try await service.accounts.user(id: userID),
            let origin = service.configuration.webOrigins.first
        else { throw APIError.notFound("No user \(userID).") }
        let link = "\(origin)/recover#\(started.recoveryAttemptId).\(started.recoveryToken)"
        let qrCode = (try? QRCode(text: link)).map { Data($0.svg(moduleSize: 6).utf8).base64EncodedString() }
        return templates.page(
            "console-recovery",
            consoleValues(call) + [
                "userID": user.id, "userName": user.name, "displayName": user.displayName, "link": link,
                "qrCode": qrCode, "expires": Self.readable(started.attemptExpiresAt),
                "revokePolicy": Self.revokeDescription[service.configuration.recovery.revoke.rawValue],
            ]
        )
    }

    static let revokeDescription = [
        "all": "all of them", "deviceBound": "those bound to a device; synced ones stay",
        "none": "none: an operator revokes them",
    ]
}
