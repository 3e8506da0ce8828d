import ArgumentParser
import Foundation
import PasskeyClient
import WebAuthn

/// `passkeys sign-in`: signs in with a passkey of the key store, playing the integrator's backend (it creates
/// the session and redeems the result with the API key) and the user's device.
struct SignInCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in",
        abstract: "Sign in with a passkey of the key store, acting as the user's device, and print who signed in.",
        discussion: """
            Creates a sign-in session with the backend API key in PASSKEYS_API_KEY (POST /v1/authentications) — \
            for --user, or usernameless without it (a discoverable passkey) — then acts as the device: fetches \
            the request options, signs with the passkey in the key store, and completes the sign-in. Finally it \
            redeems the result as the backend would and prints the user who signed in.

              PASSKEYS_API_KEY=pk_dev_… passkeys sign-in --server http://localhost:8080 --user alice
              PASSKEYS_API_KEY=pk_dev_… passkeys sign-in --server http://localhost:8080

            Exit codes: 0 signed in; 1 failed (the error code and what to do are printed); 2 bad usage.
            """
    )

    @OptionGroup var device: DeviceOptions

    @Option(
        help: ArgumentHelp("The user's id at the relying party; leave out for usernameless sign-in.", valueName: "name")
    )
    var user: String?

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        var context = DeviceFailure.Context(server: device.server, user: user, keyStore: device.store.path)
        let (store, warning) = device.store.open()
        do throws(PasskeyError) {
            let serverURL = try device.serverURL()
            let backend = PasskeyBackendAPI(serverBaseURL: serverURL, apiKey: try device.apiKey())
            context.backend = true
            let session = try await backend.createAuthentication(userId: user)
            context.backend = false
            let api = PasskeyClientAPI(serverBaseURL: serverURL)
            let options = try await api.authenticationOptions(
                sessionId: session.biometricPasskeySessionId,
                clientToken: session.clientToken
            )
            let client = WebAuthnClient(
                authenticator: SoftwareAuthenticator(keyStore: store),
                origin: device.effectiveOrigin(serverURL)
            )
            let response = try await client.get(options)
            let completion = try await api.completeAuthentication(
                sessionId: session.biometricPasskeySessionId,
                clientToken: session.clientToken,
                credential: response
            )
            context.backend = true
            let result = try await backend.redeemAuthentication(
                sessionId: session.biometricPasskeySessionId,
                resultToken: completion.resultToken
            )
            let output = """
                Signed in as \(result.userId)\(user == nil ? " (usernameless)" : "").
                  credential     \(result.credentialId)
                  user verified  \(result.userVerified ? "yes" : "no")
                  synced         \(result.backupEligible ? (result.backupState ? "yes" : "eligible") : "no (device-bound)")
                  session        \(session.biometricPasskeySessionId)

                """
            return CommandResult(exitCode: CommandResult.success, standardOutput: output, standardError: warning ?? "")
        } catch {
            return DeviceFailure.result(error, warning: warning, context: context)
        }
    }
}
