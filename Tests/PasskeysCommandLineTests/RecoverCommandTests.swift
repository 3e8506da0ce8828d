import Foundation
import PasskeyClient
import Testing

@testable import PasskeysCommandLine

/// `passkeys recover` as the person's new phone, against a live in-process server with the simulated identity
/// verification provider.
@Suite("passkeys recover")
struct RecoverCommandTests {
    /// The device options of the new phone: its own key store beside the lost phone's.
    static func newPhone(_ setup: DeviceCommandTests.Setup) -> [String] {
        ["--server", setup.server, "--origin", "https://localhost", "--key-store", setup.keyStore + ".new"]
    }

    static func startRecovery(_ setup: DeviceCommandTests.Setup, userId: String) async throws -> RecoveryAttempt {
        let backend = PasskeyBackendAPI(
            serverBaseURL: try #require(URL(string: setup.server)),
            apiKey: DeviceCommandTests.apiKey
        )
        return try await backend.createRecovery(userId: userId)
    }

    @Test("with the token in PASSKEYS_RECOVERY_TOKEN: every step printed, finalized, the new phone signs in")
    func recovered() async throws {
        try await DeviceCommandTests.withServer(identityVerificationProvider: "simulated") { setup in
            #expect(await setup.run(["register"] + setup.device + ["--user", "ada"]).exitCode == 0)
            let lost = DeviceCommandTests.listedIDs(await setup.run(["keys", "list", "--key-store", setup.keyStore]))
            let attempt = try await Self.startRecovery(setup, userId: "ada")
            let result = await setup.run(
                ["recover"] + Self.newPhone(setup) + ["--attempt", attempt.recoveryAttemptId, "--finalize"],
                environment: [RecoverCommand.tokenVariable: attempt.recoveryToken]
            )
            #expect(result.exitCode == 0, "\(result.standardError)")
            let steps = [
                "Identity verification idv_", "approved, face match pass", "Registration data: user ada at localhost",
                "Passkey created in \(setup.keyStore).new: ", "Replacement passkey registered as",
                "Recovery finalized: the passkey is active.", "  revoked  \(lost.first ?? "?")",
            ]
            var position = result.standardOutput.startIndex
            for step in steps {
                let found = result.standardOutput.range(of: step, range: position..<result.standardOutput.endIndex)
                #expect(found != nil, "missing or out of order: \(step)\n\(result.standardOutput)")
                position = found?.upperBound ?? position
            }
            #expect(!result.standardOutput.contains(attempt.recoveryToken))
            let signIn = await setup.run(["sign-in"] + Self.newPhone(setup) + ["--user", "ada"])
            #expect(signIn.exitCode == 0, "\(signIn.standardError)")
            let old = await setup.run(["sign-in"] + setup.device + ["--user", "ada"])
            #expect(old.exitCode == 1)
        }
    }

    @Test("with the token on standard input and no API key: waits for the decision made elsewhere, then recovers")
    func tokenOnStandardInput() async throws {
        try await DeviceCommandTests.withServer(identityVerificationProvider: "simulated") { setup in
            #expect(await setup.run(["register"] + setup.device + ["--user", "bo"]).exitCode == 0)
            let attempt = try await Self.startRecovery(setup, userId: "bo")
            var environment = setup.environment
            environment[DeviceEnvironment.apiKey] = nil
            let arguments = ["recover"] + Self.newPhone(setup) + ["--attempt", attempt.recoveryAttemptId]
            let stdin = Array("\(attempt.recoveryToken)\n".utf8)
            let first = await DeviceEnvironment.$overrides.withValue(environment) {
                await passkeys(arguments, stdin: stdin)
            }
            #expect(first.exitCode == 1)
            #expect(first.standardOutput.contains(": started.\n"))
            #expect(first.standardError.contains("error: RECOVERY_IDV_NOT_COMPLETED"))
            #expect(first.standardError.contains("passkeys idv decide"))
            let runId = try #require(
                first.standardOutput.split(separator: " ").first { $0.hasPrefix("idv_") }.map { String($0.dropLast()) }
            )
            #expect(
                await setup.run(["idv", "decide", runId, "--approve", "--face-match", "pass", "--server", setup.server])
                    .exitCode == 0
            )
            let second = await DeviceEnvironment.$overrides.withValue(environment) {
                await passkeys(arguments, stdin: stdin)
            }
            #expect(second.exitCode == 0, "\(second.standardError)")
            #expect(second.standardOutput.contains("started already"))
            #expect(second.standardOutput.contains("POST /v1/recoveries/\(attempt.recoveryAttemptId)/finalize"))
            let used = await DeviceEnvironment.$overrides.withValue(environment) {
                await passkeys(arguments, stdin: stdin)
            }
            #expect(used.exitCode == 1)
            #expect(used.standardError.contains("error: RECOVERY_TOKEN_INVALID"))
            #expect(used.standardError.contains("POST /v1/recoveries"))
        }
    }

    @Test("usage: --attempt and --server are required, the token never comes from an argument")
    func usage() async {
        let device = ["--server", "http://127.0.0.1:9", "--key-store", "unused-keys.json"]
        let noToken = await DeviceEnvironment.$overrides.withValue([:]) {
            await passkeys(["recover"] + device + ["--attempt", "rec_1"])
        }
        #expect(noToken.exitCode == CommandResult.usage)
        #expect(noToken.standardError.contains(RecoverCommand.tokenVariable))
        let missingAttempt = await passkeys(["recover"] + device)
        #expect(missingAttempt.exitCode == CommandResult.usage)
        #expect(missingAttempt.standardError.contains("--attempt"))
        let asArgument = await passkeys(["recover"] + device + ["--attempt", "rec_1", "--token", "pkrt_x"])
        #expect(asArgument.exitCode == CommandResult.usage)
        let down = await DeviceEnvironment.$overrides.withValue([RecoverCommand.tokenVariable: "pkrt_x"]) {
            await passkeys(["recover"] + device + ["--attempt", "rec_1"])
        }
        #expect(down.exitCode == CommandResult.failure)
        #expect(down.standardError.contains("NETWORK_ERROR"))
        #expect(await passkeys(["--help"]).standardOutput.contains("recover"))
    }
}
