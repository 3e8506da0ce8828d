// The cross-device example of docs/sdk.md ("Cross-device approval: the app as the phone"), compiled and run by the
// tests so the guide cannot drift from the SDK. Keep the two in step.
import PasskeyClient

/// Approves, on this phone, the sign-in behind a QR code's `link`: `askForNumber` is the app's screen that asks for
/// the two digits the other device shows (nil: "not me"), `ask` the one that shows a transaction.
func approveOnPhone(
    client: PasskeyClient,
    link: String,
    askForNumber: @escaping @Sendable (_ wrongSoFar: Int) async -> String?,
    ask: @escaping @Sendable (String) async -> Bool
) async throws -> String {
    let result = try await client.authenticate(
        AuthenticationInput(
            crossPlatform: .init(
                handoffToken: link,  // the whole link, or the part after '#'
                verificationCode: { request in
                    // Show request.handoff.transaction?.text or .action, and ask for the number.
                    await askForNumber(request.wrongAttempts)
                },
                confirmTransaction: { transaction in await ask(transaction.text) }
            )
        )
    )
    // No result token here: the other device redeems the session with its handoff's poll token.
    return result.crossPlatformSessionId ?? ""
}
