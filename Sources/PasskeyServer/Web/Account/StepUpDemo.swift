import Foundation
import Hummingbird

/// The account page's "confirm a payment": a step-up with a sample transaction, as an integrator's server would
/// run one before a risky action. The page shows the text, checks that the challenge commits to it, signs, and
/// shows what redemption returned.
extension WebPages {
    /// The transaction the demo asks the user to confirm.
    static let samplePayment = "Pay 42.00 EUR to Example Shop\nOrder 1234, card ending 4242"

    func registerStepUpDemo(on router: Router<PasskeyRequestContext>) {
        router.post("/demo/step-up") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let userID = try call.signedInUserID()
                let session = try await service.signIn.create(
                    CreateAuthenticationRequest(
                        userId: userID,
                        mode: SignInMode.stepUp.rawValue,
                        action: "demo.payment",
                        transaction: TransactionRequest(text: Self.samplePayment)
                    ),
                    by: call.caller(Self.demoActor)
                )
                call.session.pendingFlowID = session.biometricPasskeySessionId
                return JSONBody.response(session, status: .created)
            }
        }
        router.post("/demo/step-up/finish") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let userID = try call.signedInUserID()
                let result = try await redeemPendingSignIn(&call, as: Self.demoActor)
                guard result.userId == userID else { throw APIError.userMismatch }
                return JSONBody.response(result)
            }
        }
    }
}
