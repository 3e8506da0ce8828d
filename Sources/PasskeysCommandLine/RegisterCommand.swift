import ArgumentParser
import Foundation
import PasskeyClient
import WebAuthn

/// `passkeys register`: registers a passkey for a user, playing both the integrator's backend (it creates the
/// registration attempt with the API key) and the user's device (a software authenticator with an encrypted key
/// store).
struct RegisterCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Register a passkey for a user, acting as the user's device.",
        discussion: """
            Creates a registration attempt with the backend API key in PASSKEYS_API_KEY (POST /v1/registrations), \
            then acts as the device: fetches the creation options, makes a P-256 passkey in the key store, and \
            completes the registration. The key store is encrypted with PASSKEYS_KEY_STORE_PASSPHRASE (a \
            development passphrase, with a warning, when unset).

              PASSKEYS_API_KEY=pk_dev_… passkeys register --server http://localhost:8080 --user alice

            Exit codes: 0 registered; 1 failed (the error code and what to do are printed); 2 bad usage.
            """
    )

    @OptionGroup var device: DeviceOptions

    @Option(
        help: ArgumentHelp(
            "The user name: an existing user of that name (signed up on the web pages, say) gets another passkey; a new name becomes a user whose id is the name (1–128 URL-safe characters).",
            valueName: "name"
        )
    )
    var user: String

    @Option(
        name: .customLong("display-name"),
        help: ArgumentHelp("The user's display name (default: the user name).", valueName: "text")
    )
    var displayName: String?

    @Option(
        name: .customLong("name"),
        help: ArgumentHelp("The passkey's name on the server (default: chosen by the server).", valueName: "text")
    )
    var credentialName: String?

    @OptionGroup var save: SaveOption

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        let context = DeviceFailure.Context(server: device.server, user: user, keyStore: device.store.path)
        let (store, warning) = device.store.open()
        do throws(PasskeyError) {
            let serverURL = try device.serverURL()
            let backend = PasskeyBackendAPI(serverBaseURL: serverURL, apiKey: try device.apiKey())
            // User names are unique per relying party: the name leads to the user, wherever they were created.
            let userID = try await backend.user(named: user)?.userId ?? user
            let attempt = try await backend.createRegistration(
                userId: userID,
                userName: user,
                displayName: displayName,
                credentialName: credentialName
            )
            let api = PasskeyClientAPI(serverBaseURL: serverURL)
            let options = try await api.registrationOptions(
                registrationAttemptId: attempt.registrationAttemptId,
                clientToken: attempt.clientToken
            )
            let client = WebAuthnClient(
                authenticator: SoftwareAuthenticator(keyStore: store),
                origin: device.effectiveOrigin(serverURL)
            )
            let response = try await client.create(options, userId: userID)
            let registered = try await api.completeRegistration(
                registrationAttemptId: attempt.registrationAttemptId,
                clientToken: attempt.clientToken,
                credential: response
            )
            var output = """
                Registered a passkey for \(user) on \(options.rp.id ?? serverURL.host ?? "the server").
                  credential  \(registered.credentialId)
                  name        \(registered.name)
                  status      \(registered.status)
                  key store   \(store.path)

                """
            if save.directory != nil {
                _ = try save.write(options, as: "registration-options.json")
                let saved = try save.write(response, as: "registration.json")
                output += """
                    Saved registration-options.json and registration.json in \(save.directory ?? ""). Try:
                      passkeys inspect \(saved)
                      passkeys verify registration --response \(saved) --challenge \(options.challenge) \
                        --origin \(device.effectiveOrigin(serverURL)) --rp-id \(options.rp.id ?? serverURL.host ?? "RPID")

                    """
            }
            return CommandResult(exitCode: CommandResult.success, standardOutput: output, standardError: warning ?? "")
        } catch {
            return DeviceFailure.result(error, warning: warning, context: context)
        }
    }
}
