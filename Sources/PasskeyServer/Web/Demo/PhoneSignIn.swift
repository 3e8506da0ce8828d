import Foundation
import Hummingbird

/// The demo's "Sign in with your phone" (cross-device approval, as an integrator's server runs it): the browser's
/// sign-in session is handed off to the phone that holds the passkey, and the browser — which keeps the handoff's
/// poll token — watches its status and, once approved, redeems the session with that token. `/approve` is the page a
/// phone's browser opens from the handoff's default deep link.
extension WebPages {
    /// `POST /demo/sign-in/phone`: what the page shows (the QR code, the number, the link) and keeps (the poll token).
    struct PhoneSignIn: Encodable, Sendable {
        let biometricPasskeySessionId: String
        let crossPlatformSessionId: String
        let deepLink: String
        let qrCodeSVG: String
        let verificationCode: String
        let pollToken: String
        let expiresAt: Date
    }

    func registerPhoneSignIn(on router: Router<PasskeyRequestContext>) {
        router.post("/demo/sign-in/phone") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let body = try await decode(SignInRequest.self, call)
                let session = try await createDemoSignIn(&call, userName: body.userName)
                let handoff = try await service.handoff.create(
                    forSignIn: session.biometricPasskeySessionId,
                    by: call.caller(Self.demoActor)
                )
                return JSONBody.response(
                    PhoneSignIn(
                        biometricPasskeySessionId: session.biometricPasskeySessionId,
                        crossPlatformSessionId: handoff.crossPlatformSessionId,
                        deepLink: handoff.deepLink,
                        qrCodeSVG: handoff.qrCodeSVG,
                        verificationCode: handoff.verificationCode,
                        pollToken: handoff.pollToken,
                        expiresAt: handoff.expiresAt
                    ),
                    status: .created
                )
            }
        }
        router.get("/approve") { request, context in
            try await page(request, context) { call throws(APIError) in
                templates.page("approve", layoutValues(call))
            }
        }
    }
}
