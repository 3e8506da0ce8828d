import Foundation
import PasskeyStorage
import WebAuthn

/// Signing a browser in and out of the demo or the console: each sign-in is a new secret in a new cookie and a new
/// session in the store, so a secret planted before sign-in is worth nothing and a copy taken before sign-out
/// opens nothing afterwards.
extension WebPages {
    /// Signs the browser in as `userID` (the demo) or `operatorName` (the console), with the passkey
    /// `credentialID` when one was used, ending the session it had.
    func signIn(
        _ call: inout WebCall,
        userID: String?,
        operatorName: String? = nil,
        credentialID: String? = nil
    ) async throws(APIError) {
        try await endSession(&call)
        let lifetime = TimeInterval(call.cookies.lifetime)
        let record = WebSessionRecord(
            id: Secrets.identifier(prefix: "ws_"),
            secretHash: call.session.secretHash,
            kind: call.cookies.kind,
            userID: userID,
            operatorName: operatorName,
            credentialID: credentialID.flatMap { try? Base64URL.decode($0) },
            clientIP: call.context.clientIP,
            createdAt: call.now,
            expiresAt: call.now.addingTimeInterval(lifetime)
        )
        let bound = service.configuration.web.maxSessionsPerUser
        try await service.webSessions.start(record, maximumPerUser: bound)
        call.signedIn = record
    }

    /// Ends the browser's session, if it had one, and gives it a new anonymous cookie.
    func endSession(_ call: inout WebCall) async throws(APIError) {
        if let signedIn = call.signedIn {
            _ = try await service.webSessions.end(id: signedIn.id)
        }
        call.signedIn = nil
        call.session = .anonymous(lifetime: call.cookies.lifetime, now: call.now)
    }

    /// `{biometricPasskeySessionId, resultToken}`: what a page posts when its ceremony completed.
    struct FinishedSignIn: Decodable, Sendable {
        let biometricPasskeySessionId: String
        let resultToken: String
    }

    /// Redeems the sign-in (or step-up) this browser started, as the pages' integrator `actor`: never a flow of the
    /// integrator's nor another browser's, which answer `NOT_FOUND` without being redeemed.
    func redeemPendingSignIn(_ call: inout WebCall, as actor: String) async throws(APIError) -> AuthenticationResult {
        let body = try await JSONBody.decode(
            FinishedSignIn.self,
            from: call.request,
            limit: service.configuration.limits.maxRequestBodyBytes
        )
        guard call.session.pendingFlowID == body.biometricPasskeySessionId else {
            throw APIError.notFound("This browser did not start that sign-in; start again.")
        }
        let result = try await service.signIn.redeem(
            id: body.biometricPasskeySessionId,
            request: RedeemRequest(resultToken: body.resultToken),
            by: call.caller(actor)
        )
        call.session.pendingFlowID = nil
        return result
    }

    /// The signed-in demo user's record, or `SIGN_IN_REQUIRED`.
    func signedInUser(_ call: WebCall) async throws(APIError) -> UserRecord {
        let id = try call.signedInUserID()
        guard let user = try await service.accounts.user(id: id) else {
            throw APIError.signInRequired
        }
        return user
    }
}
