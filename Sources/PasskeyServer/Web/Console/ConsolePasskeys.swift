import Foundation
import Hummingbird
import PasskeyStorage
import WebAuthn

/// Console passkeys: a passkey opens the console only when it belongs to an operator (`web.operators`), was enrolled
/// for the console here, and verified the user. A passkey made anywhere else — the demo, the backend API, a
/// recovery — opens the account pages at most, however it was obtained. An operator in the console enrols one for
/// themselves on their user page, and a break-glass session (an API key) enrols one for any operator.
extension WebPages {
    func registerConsolePasskeys(on router: Router<PasskeyRequestContext>) {
        router.post("/console/users/{userId}/console-passkeys") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let userID = try consoleEnrolmentUser(call)
                let name = try call.operatorName()
                let user = try await service.accounts.user(id: userID)
                let attempt = try await service.registration.create(
                    CreateRegistrationRequest(
                        userId: userID,
                        userName: user?.name ?? userID,
                        displayName: user?.displayName,
                        identityVerification: nil,
                        credentialName: nil,
                        finalize: nil,
                        workflowRunId: nil
                    ),
                    forConsole: true,
                    by: call.caller("operator:\(name)")
                )
                call.session.pendingFlowID = attempt.registrationAttemptId
                return JSONBody.response(attempt, status: .created)
            }
        }
        router.post("/console/users/{userId}/console-passkeys/finish") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let userID = try consoleEnrolmentUser(call)
                let name = try call.operatorName()
                let body = try await decode(FinishRegistrationRequest.self, call)
                guard call.session.pendingFlowID == body.registrationAttemptId else {
                    throw APIError.notFound("This browser did not start that registration; start again.")
                }
                let status = try await service.registration.status(id: body.registrationAttemptId)
                guard status.status == FlowStatus.completed.rawValue, let credential = status.credential,
                    credential.userId == userID
                else {
                    throw APIError.invalidRequest("The registration has not completed (\(status.status)); start again.")
                }
                call.session.pendingFlowID = nil
                await service.accounts.audit(
                    .consolePasskeyEnrolled,
                    by: call.caller("operator:\(name)"),
                    userID: userID,
                    subject: credential.credentialId
                )
                return JSONBody.response(Redirect(redirect: "/console/users/\(userID)?done=enrolled"))
            }
        }
    }

    /// The operator a console passkey may be enrolled for by the signed-in operator: one named in `web.operators`,
    /// and the signed-in operator themselves unless the session is a break-glass (signed in with an API key).
    func consoleEnrolmentUser(_ call: WebCall) throws(APIError) -> String {
        _ = try call.operatorName()
        let userID = call.context.parameters.get("userId") ?? ""
        try Validation.userID(userID)
        guard isOperator(userID), call.signedIn?.userID == nil || call.signedIn?.userID == userID else {
            throw APIError.consoleEnrolmentForbidden
        }
        return userID
    }

    /// Refuses a console sign-in whose passkey may not open the console: its user is not an operator, the passkey
    /// was not enrolled for the console (or is no longer active), or the user was not verified.
    func requireConsolePasskey(_ result: AuthenticationResult) async throws(APIError) {
        guard isOperator(result.userId) else { throw APIError.operatorRequired }
        let id = (try? Base64URL.decode(result.credentialId)) ?? []
        guard let credential = try await service.accounts.credentialRecord(id: id),
            credential.userID == result.userId, credential.status == .active, credential.consoleEnrolled
        else { throw APIError.consolePasskeyRequired }
        guard result.userVerified else { throw APIError.consoleUserVerificationRequired }
    }
}
