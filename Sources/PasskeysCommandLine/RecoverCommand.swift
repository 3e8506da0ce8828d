import ArgumentParser
import Foundation
import PasskeyClient
import WebAuthn

/// `passkeys recover`: recovers an account on this device — the new phone — with the recovery token the person
/// received out of band, and prints what happened at each step.
struct RecoverCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Recover an account on this device with a recovery token, acting as the person's new phone.",
        discussion: """
            The recovery token is read from PASSKEYS_RECOVERY_TOKEN or, when that is unset, from the first line of \
            standard input — never from the command line, which other users of the machine can see.

            Starts the recovery's identity verification (POST /biometric-passkey/mobile/recovery/ID/idv/start); \
            with PASSKEYS_API_KEY set, decides it through the server's simulated provider (approved, face match \
            pass), as a device without a capture UI must. Then exchanges the token for the replacement \
            registration data, creates the passkey in the key store, and completes it on the server, where it is \
            reserved until the backend finalizes the recovery; --finalize does that too (with PASSKEYS_API_KEY) \
            and prints the passkeys it revoked.

              PASSKEYS_RECOVERY_TOKEN=pkrt_… passkeys recover --server http://localhost:8080 --attempt rec_…
              passkeys recover --server http://localhost:8080 --attempt rec_… < token.txt

            Without PASSKEYS_API_KEY, decide the run elsewhere (passkeys idv decide RUN --approve --face-match \
            pass, or your vendor) and run the command again: the run is started once, and the token is not used \
            up until the registration data are issued.

            Exit codes: 0 recovered; 1 failed (the error code and what to do are printed); 2 bad usage.
            """
    )

    static let tokenVariable = "PASSKEYS_RECOVERY_TOKEN"

    @OptionGroup var device: DeviceOptions

    @Option(help: ArgumentHelp("The recovery attempt's id (rec_…), from the backend.", valueName: "id"))
    var attempt: String

    @Flag(help: "Finalize the recovery with PASSKEYS_API_KEY, as the backend would: the old passkeys are revoked.")
    var finalize = false

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        let context = DeviceFailure.Context(server: device.server, keyStore: device.store.path)
        let (store, warning) = device.store.open()
        var output = ""
        do throws(PasskeyError) {
            let token = try Self.recoveryToken(in: environment)
            let serverURL = try device.serverURL()
            let api = PasskeyClientAPI(serverBaseURL: serverURL)
            let backend = try? PasskeyBackendAPI(serverBaseURL: serverURL, apiKey: device.apiKey())
            if finalize, backend == nil { _ = try device.apiKey() }
            output += try await verifyIdentity(api: api, backend: backend, token: token)
            let data = try await api.recoveryRegistration(recoveryAttemptId: attempt, recoveryToken: token)
            output += """
                Registration data: user \(data.userId ?? data.userHandle) at \(data.rpId); create the passkey \
                by \(Self.time(data.registrationExpiresAt)).

                """
            let client = WebAuthnClient(
                authenticator: SoftwareAuthenticator(keyStore: store),
                origin: device.effectiveOrigin(serverURL)
            )
            let response = try await client.create(data.creationOptions(), userId: data.userId ?? data.userHandle)
            output += "Passkey created in \(device.store.path): \(response.id)\n"
            guard let continuationToken = data.continuationToken else {
                throw PasskeyError(.invalidInput, "The server's registration data carry no continuation token.")
            }
            let registered = try await api.completeRecovery(
                recoveryAttemptId: attempt,
                continuationToken: continuationToken,
                credential: response
            )
            output += "Replacement passkey registered as '\(registered.name)' (\(registered.status)).\n"
            if finalize, let backend {
                let finalized = try await backend.finalizeRecovery(recoveryAttemptId: attempt)
                output += "Recovery finalized: the passkey is \(finalized.credential.status).\n"
                output += finalized.revokedCredentialIds.map { "  revoked  \($0)\n" }.joined()
            } else {
                output += "Recovered. The backend finalizes it: POST /v1/recoveries/\(attempt)/finalize.\n"
            }
            return CommandResult(exitCode: CommandResult.success, standardOutput: output, standardError: warning ?? "")
        } catch {
            var failure = DeviceFailure.result(error, warning: warning, context: context)
            failure.standardOutput = output
            if let hint = Self.hint(error) { failure.standardError += "what to do: \(hint)\n" }
            return failure
        }
    }

    /// Starts the identity verification (once per recovery) and, with an API key, decides it as the simulated
    /// provider: approved, face matched.
    func verifyIdentity(
        api: PasskeyClientAPI,
        backend: PasskeyBackendAPI?,
        token: String
    ) async throws(PasskeyError) -> String {
        let started: IdentityVerificationStart
        do {
            started = try await api.startRecoveryIdentityVerification(recoveryAttemptId: attempt, recoveryToken: token)
        } catch  where error.code == .identityVerificationAlreadyStarted {
            return "Identity verification: started already; waiting for its decision is the server's.\n"
        }
        var text = "Identity verification \(started.workflowRunId): started.\n"
        if let backend {
            try await SimulatedIdentityVerifier(backend: backend, faceMatch: .pass).verify(
                IdentityVerificationRequest(
                    workflowRunId: started.workflowRunId,
                    idvToken: started.idvToken,
                    purpose: .recovery,
                    expiresAt: started.expiresAt
                )
            )
            text += "Identity verification \(started.workflowRunId): approved, face match pass (simulated provider).\n"
        }
        return text
    }

    /// PASSKEYS_RECOVERY_TOKEN, else the first line of standard input.
    static func recoveryToken(in environment: CommandEnvironment) throws(PasskeyError) -> String {
        if let token = DeviceEnvironment.value(tokenVariable) { return token }
        let input = (try? environment.readStandardInput()) ?? []
        let line = String(decoding: input, as: UTF8.self).split(whereSeparator: \.isNewline).first
        let token = line.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !token.isEmpty else {
            throw PasskeyError(
                .invalidInput,
                "No recovery token: set \(tokenVariable), or pass it on standard input (never as an argument)."
            )
        }
        return token
    }

    static func time(_ date: Date) -> String { date.formatted(.iso8601) }

    /// What to do after a recovery failure.
    static func hint(_ error: PasskeyError) -> String? {
        switch error.code {
        case .recoveryIdentityVerificationNotCompleted:
            "Decide the identity verification (passkeys idv decide RUN --approve --face-match pass with the simulated provider), then run this again."
        case .recoveryTokenInvalid, .recoveryAttemptExpired, .recoveryAttemptCancelled,
            .recoveryPasskeyRegistrationExpired:
            "Ask the backend for a new recovery (POST /v1/recoveries) and use its token."
        case .recoveryMatchFailed, .recoveryEvidenceUnavailable, .workflowDeclined:
            "This account cannot be recovered with identity verification; recover it through support."
        default: nil
        }
    }
}
