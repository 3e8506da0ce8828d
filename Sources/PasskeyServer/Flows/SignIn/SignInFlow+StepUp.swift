import Foundation
import PasskeyStorage

/// Step-up (DESIGN §3 flow 3): a signed-in user confirms a risky action — with user verification always, the
/// transaction's text bound into the challenge, and identity verification when asked for or required by policy.
extension SignInFlow {
    struct StepUpRequirements: Sendable {
        let transaction: Transaction?
        let identityVerification: Bool
    }

    /// What a sign-in request asks of step-up, with `policy.stepUp` applied; only a step-up may ask for either.
    func stepUpRequirements(
        _ request: CreateAuthenticationRequest,
        mode: SignInMode
    ) throws(APIError) -> StepUpRequirements {
        let identityVerification: Bool
        switch request.identityVerification ?? "none" {
        case "none": identityVerification = false
        case "required": identityVerification = true
        default: throw APIError.invalidRequest("identityVerification must be 'none' or 'required'.")
        }
        guard mode == .stepUp else {
            guard request.transaction == nil, !identityVerification else {
                throw APIError.invalidRequest(
                    "transaction and identityVerification belong to a step-up: send mode 'stepUp' with them."
                )
            }
            return StepUpRequirements(transaction: nil, identityVerification: false)
        }
        let policy = configuration.policy.stepUp
        guard request.transaction != nil || !policy.requireTransaction else {
            throw APIError.invalidRequest(
                "This server's policy (policy.stepUp.requireTransaction) needs every step-up to name its transaction: send transaction.text."
            )
        }
        let required = identityVerification || policy.requireIdentityVerification
        if required, configuration.identityVerification.provider == .disabled {
            throw APIError.identityVerificationNotConfigured("identityVerification 'required'")
        }
        return StepUpRequirements(
            transaction: try request.transaction.map { transaction throws(APIError) in
                try Transaction(text: transaction.text)
            },
            identityVerification: required
        )
    }

    /// `POST /biometric-passkey/mobile/step-up/{id}/idv/start`: the client starts the identity verification its
    /// step-up session requires.
    func startIdentityVerification(for flow: FlowRecord, by caller: Caller) async throws(APIError) -> WorkflowRunStart {
        let state = try decodePayload(AuthenticationState.self, from: flow)
        guard state.crossPlatformSessionId == nil else {
            throw APIError.invalidRequest(
                "This session was handed off to a phone, which verifies identity through POST /biometric-passkey/mobile/cross-platform/{crossPlatformSessionId}/idv/start."
            )
        }
        guard state.mode == .stepUp, state.identityVerification == true, let userID = flow.userID else {
            throw APIError.invalidRequest("This sign-in session does not ask for identity verification.")
        }
        return try await identityVerification.startWorkflowRun(
            purpose: .stepUp,
            userID: userID,
            flowID: flow.id,
            by: caller
        )
    }
}
