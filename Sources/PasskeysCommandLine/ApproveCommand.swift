import ArgumentParser
import Foundation
import PasskeyClient
import WebAuthn

/// `passkeys approve`: acts as the phone of a cross-device approval — claims the handoff another device shows as a QR
/// code, checks the number with the person, and signs the session with a passkey of the key store.
struct ApproveCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve",
        abstract: "Approve, as the phone, a sign-in another device hands off by QR code or link.",
        discussion: """
            LINK is the QR code's text or the deep link (https://…/approve#pkh_…), or the handoff token alone. \
            The command claims the handoff (the first claim wins), prints what is approved, then asks for the \
            two digits the other device shows — from --code, or typed on standard input — and, once the \
            server confirms them, signs with the passkey of the key store. The other device then signs in.

              passkeys approve 'http://localhost:8080/approve#pkh_…' --code 42
              echo 42 | passkeys approve pkh_… --server http://localhost:8080

            --server defaults to the link's origin. Typed numbers are read a line at a time: after a wrong one \
            the command asks again on the same claim, until the server's tries are used up.

            --reject says "not me": the handoff is rejected and the other device is told so. A session that \
            requires identity verification is decided through the server's simulated provider, with \
            PASSKEYS_API_KEY (passkeys serve --identity-verification simulated).

            Exit codes: 0 approved (or rejected with --reject); 1 failed (the error code and what to do are \
            printed); 2 bad usage.
            """
    )

    @Argument(help: ArgumentHelp("The QR code's link, or the handoff token.", valueName: "link"))
    var link: String

    @OptionGroup var device: DeviceOptions

    @Option(help: ArgumentHelp("The two digits the other device shows.", valueName: "NN"))
    var code: String?

    @Flag(help: "Refuse the sign-in: it was not you.")
    var reject = false

    func validate() throws {
        if let code, code.count != 2 || !code.allSatisfy(\.isASCII) || !code.allSatisfy(\.isNumber) {
            throw ValidationError("--code must be the two digits the other device shows, such as 07.")
        }
        if reject, code != nil { throw ValidationError("--reject and --code exclude each other.") }
    }

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        var context = DeviceFailure.Context(server: device.server, keyStore: device.store.path)
        let (store, warning) = device.store.open()
        do throws(PasskeyError) {
            let serverURL = try device.serverURL(fallback: Self.origin(of: link))
            context.server = serverURL.absoluteString
            let api = PasskeyClientAPI(serverBaseURL: serverURL)
            let token = AuthenticationInput.CrossPlatform.handoffToken(in: link)
            let handoff = try await api.resumeHandoff(handoffToken: token)
            var output = "Claimed the sign-in \(handoff.biometricPasskeySessionId) (\(handoff.mode)).\n"
            if let action = handoff.action { output += "  action       \(action)\n" }
            if let transaction = handoff.transaction { output += "  approving    \(transaction.text)\n" }
            if reject {
                _ = try await api.rejectHandoff(handoff)
                output += "Rejected: the other device is told it was not you.\n"
                return CommandResult(
                    exitCode: CommandResult.success,
                    standardOutput: output,
                    standardError: warning ?? ""
                )
            }
            if let code {
                _ = try await api.confirmHandoff(handoff, verificationCode: code)
            } else {
                // What is approved is shown with the question, once; a wrong number is asked again on this claim
                // (the server counts the tries and ends the handoff after the last).
                environment.prompt(output + "Type the number the other device shows: ")
                output = ""
                try await Self.confirmTypedNumber(handoff, api: api, environment: environment)
            }
            output += "Number confirmed.\n"
            if handoff.requiresIdentityVerification {
                let backend = PasskeyBackendAPI(serverBaseURL: serverURL, apiKey: try device.apiKey())
                let started = try await api.startHandoffIdentityVerification(handoff)
                context.workflowRunId = started.workflowRunId
                try await SimulatedIdentityVerifier(backend: backend).verify(
                    IdentityVerificationRequest(
                        workflowRunId: started.workflowRunId,
                        idvToken: started.idvToken,
                        purpose: .crossPlatform,
                        expiresAt: started.expiresAt
                    )
                )
                context.workflowRunId = nil
                output += "Identity verification \(started.workflowRunId): approved (simulated provider).\n"
            }
            // The key store's passkeys for the server go with the request: a sign-in none of them can approve (the
            // demo's, with a passkey of a site account) is refused before anything is signed.
            let authenticator = SoftwareAuthenticator(keyStore: store)
            let origin = device.effectiveOrigin(serverURL)
            let request = try await api.authenticationRequest(
                sessionId: handoff.biometricPasskeySessionId,
                clientToken: handoff.clientToken,
                heldCredentialIds: try await authenticator.heldCredentialIDs(
                    originHost: URL(string: origin)?.host ?? serverURL.host ?? ""
                )
            )
            if let shown = request.transaction {
                // What is signed must be what was shown when the handoff was claimed.
                try shown.verify(boundInto: request.publicKey.challenge.bytes)
                guard shown == handoff.transaction else {
                    throw PasskeyError(
                        .authContextMismatch,
                        "The options carry another transaction than the handoff showed; nothing was signed."
                    )
                }
            }
            let response = try await WebAuthnClient(authenticator: authenticator, origin: origin).get(request.publicKey)
            _ = try await api.completeAuthentication(
                sessionId: handoff.biometricPasskeySessionId,
                clientToken: handoff.clientToken,
                credential: response
            )
            output += "Approved with passkey \(response.id): the other device signs in.\n"
            return CommandResult(exitCode: CommandResult.success, standardOutput: output, standardError: warning ?? "")
        } catch {
            return DeviceFailure.result(error, warning: warning, context: context)
        }
    }

    /// Reads the number and confirms it, asking again after a wrong one while standard input has lines.
    static func confirmTypedNumber(
        _ handoff: CrossPlatformHandoff,
        api: PasskeyClientAPI,
        environment: CommandEnvironment
    ) async throws(PasskeyError) {
        var mismatch: PasskeyError?
        while true {
            guard let line = environment.readLine() else {
                throw mismatch
                    ?? PasskeyError(
                        .invalidInput,
                        "No number was given: pass --code NN, or type the two digits the other device shows."
                    )
            }
            let number = line.trimmingCharacters(in: .whitespaces)
            do throws(PasskeyError) {
                _ = try await api.confirmHandoff(handoff, verificationCode: number)
                return
            } catch  where error.code == .handoffCodeMismatch {
                mismatch = error
                environment.prompt("\(error.message)\nType the number again: ")
            }
        }
    }

    /// `scheme://host[:port]` of a link given as an http(s) URL: the server that made it, by default.
    static func origin(of link: String) -> String? {
        guard let url = URL(string: link), let scheme = url.scheme, scheme == "https" || scheme == "http",
            let host = url.host
        else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}
