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

            With --step-up the session is a step-up (user verification required) for --user. --transaction binds             a text into the challenge: the device checks that the challenge ends with the text's digest, prints             the text it signs and its digest, then signs. --identity-verification requires identity verification,             which the device starts and decides through the server's simulated provider (passkeys serve             --identity-verification simulated). The redeemed sign-in's assurance is printed.

              PASSKEYS_API_KEY=pk_dev_… passkeys sign-in --server http://localhost:8080 --user alice \
                  --step-up --transaction "Pay 25 € to Bob" --identity-verification

            Exit codes: 0 signed in; 1 failed (the error code and what to do are printed); 2 bad usage.
            """
    )

    @OptionGroup var device: DeviceOptions

    @OptionGroup var save: SaveOption

    @Option(
        help: ArgumentHelp("The user name; leave out for usernameless sign-in.", valueName: "name")
    )
    var user: String?

    @Flag(name: .customLong("step-up"), help: "A step-up sign-in (needs --user).")
    var stepUp = false

    @Option(
        help: ArgumentHelp("With --step-up: the text the user approves, bound into the challenge.", valueName: "text")
    )
    var transaction: String?

    @Flag(
        name: .customLong("identity-verification"),
        help: "With --step-up: require identity verification, decided by the server's simulated provider."
    )
    var identityVerification = false

    func validate() throws {
        if !stepUp {
            if transaction != nil { throw ValidationError("--transaction needs --step-up.") }
            if identityVerification { throw ValidationError("--identity-verification needs --step-up.") }
        } else if user == nil {
            throw ValidationError("--step-up needs --user: a step-up is for a user who is signed in.")
        }
        if let transaction, transaction.isEmpty { throw ValidationError("--transaction must not be empty.") }
    }

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        var context = DeviceFailure.Context(server: device.server, user: user, keyStore: device.store.path)
        let (store, warning) = device.store.open()
        do throws(PasskeyError) {
            let serverURL = try device.serverURL()
            let backend = PasskeyBackendAPI(serverBaseURL: serverURL, apiKey: try device.apiKey())
            var userID: String?
            if let user { userID = try await Self.userID(named: user, backend) }
            let session = try await backend.createAuthentication(
                userId: userID,
                mode: stepUp ? "stepUp" : "standard",
                transaction: transaction,
                requireIdentityVerification: identityVerification
            )
            let api = PasskeyClientAPI(serverBaseURL: serverURL)
            var output = ""
            if identityVerification {
                output += try await verifyIdentity(session, api: api, backend: backend, context: &context)
            }
            let request = try await api.authenticationRequest(
                sessionId: session.biometricPasskeySessionId,
                clientToken: session.clientToken
            )
            if let shown = try checkTransaction(request) {
                output += "Signing: \(shown.text)\n  digest  \(shown.digest)\n"
            }
            let client = WebAuthnClient(
                authenticator: SoftwareAuthenticator(keyStore: store),
                origin: device.effectiveOrigin(serverURL)
            )
            let response = try await client.get(request.publicKey)
            let completion = try await api.completeAuthentication(
                sessionId: session.biometricPasskeySessionId,
                clientToken: session.clientToken,
                credential: response
            )
            let result = try await backend.redeemAuthentication(
                sessionId: session.biometricPasskeySessionId,
                resultToken: completion.resultToken
            )
            let kind = stepUp ? " (step-up)" : user == nil ? " (usernameless)" : ""
            output += """
                Signed in as \(result.userId)\(kind).
                  credential     \(result.credentialId)
                  user verified  \(result.userVerified ? "yes" : "no")
                  synced         \(result.backupEligible ? (result.backupState ? "yes" : "eligible") : "no (device-bound)")

                """
            if let assurance = result.assurance { output += "  assurance      \(assurance)\n" }
            if let verification = result.identityVerification {
                output += "  identity       \(verification.decision) (\(verification.workflowRunId))\n"
            }
            if let signed = result.transaction { output += "  transaction    \(signed.text)\n" }
            output += "  session        \(session.biometricPasskeySessionId)\n"
            if save.directory != nil {
                _ = try save.write(request.publicKey, as: "authentication-options.json")
                let saved = try save.write(response, as: "authentication.json")
                output += """
                    Saved authentication-options.json and authentication.json in \(save.directory ?? ""). Try:
                      passkeys inspect \(saved)
                    (passkeys verify authentication takes the passkey's public key, which inspect shows in its registration)

                    """
            }
            return CommandResult(exitCode: CommandResult.success, standardOutput: output, standardError: warning ?? "")
        } catch {
            return DeviceFailure.result(error, warning: warning, context: context)
        }
    }
}

extension SignInCommand {
    /// Starts the session's identity verification and decides it with the simulated provider (the device has no
    /// capture UI; the backend API key it holds anyway decides the run).
    func verifyIdentity(
        _ session: AuthenticationSession,
        api: PasskeyClientAPI,
        backend: PasskeyBackendAPI,
        context: inout DeviceFailure.Context
    ) async throws(PasskeyError) -> String {
        let started = try await api.startStepUpIdentityVerification(
            sessionId: session.biometricPasskeySessionId,
            clientToken: session.clientToken
        )
        // A failure to decide is the backend API's, about this run (the failure's hint says so).
        context.workflowRunId = started.workflowRunId
        try await SimulatedIdentityVerifier(backend: backend).verify(
            IdentityVerificationRequest(
                workflowRunId: started.workflowRunId,
                idvToken: started.idvToken,
                purpose: .stepUp,
                expiresAt: started.expiresAt
            )
        )
        context.workflowRunId = nil
        return "Identity verification \(started.workflowRunId): approved (simulated provider).\n"
    }

    /// The transaction the options bind, checked: its digest is the text's and ends the challenge, and it is the
    /// text asked for (after NFC). Nil when the session binds none and none was asked for.
    func checkTransaction(_ request: AuthenticationRequest) throws(PasskeyError) -> TransactionDetails? {
        guard let shown = request.transaction else {
            guard transaction == nil else {
                throw PasskeyError(
                    .authContextMismatch,
                    "The server's options carry no transaction although one was asked for; nothing was signed."
                )
            }
            return nil
        }
        try shown.verify(boundInto: request.publicKey.challenge.bytes)
        guard
            let transaction,
            transaction.precomposedStringWithCanonicalMapping == shown.text.precomposedStringWithCanonicalMapping
        else {
            throw PasskeyError(
                .authContextMismatch,
                "The server's options carry another transaction than the one asked for; nothing was signed."
            )
        }
        return shown
    }

    /// The id of the user named `name`: user names are unique per relying party, whoever created the user.
    static func userID(named name: String, _ backend: PasskeyBackendAPI) async throws(PasskeyError) -> String {
        guard let user = try await backend.user(named: name) else {
            throw PasskeyError(
                .notFound,
                "No user is named \(name) on this server: check the name, register it with 'passkeys register --user \(name)', or sign up on the server's page."
            )
        }
        return user.userId
    }
}
