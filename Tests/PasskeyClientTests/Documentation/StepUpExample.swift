// The step-up example of docs/sdk.md ("Step-up and identity verification"), compiled and run by the tests so the
// guide cannot drift from the SDK. Keep the two in step.
import Foundation
import PasskeyClient

/// Approves a payment with a step-up: `backend` plays your server, `client` the app, `ask` the app's confirmation
/// screen. Returns the assurance and the text the backend learns when it redeems the result.
func approvePayment(
    client: PasskeyClient,
    backend: PasskeyBackendAPI,
    userId: String,
    ask: @escaping @Sendable (String) async -> Bool
) async throws -> String {
    // Your backend: a step-up session that binds the payment's text and requires identity verification.
    let session = try await backend.createAuthentication(
        userId: userId,
        mode: "stepUp",
        action: "payment.approve",
        transaction: "Pay 25,00 € to Bob's Bikes",
        requireIdentityVerification: true
    )
    // The app: the client's IdentityVerifier runs; the SDK checks that the challenge carries the digest of the
    // text, the user sees the text and approves it, and only then the passkey signs.
    let result = try await client.authenticate(
        AuthenticationInput(
            sessionId: session.biometricPasskeySessionId,
            clientToken: session.clientToken,
            mode: .stepUp(
                .init(
                    identityVerification: session.requiresIdentityVerification,
                    confirmTransaction: { transaction in await ask(transaction.text) }
                )
            )
        )
    )
    // Your backend: what the user approved, and how strongly it is proven.
    let redeemed = try await backend.redeemAuthentication(
        sessionId: session.biometricPasskeySessionId,
        resultToken: result.resultToken
    )
    return "\(redeemed.assurance ?? "unknown"): \(redeemed.transaction?.text ?? "")"
}
