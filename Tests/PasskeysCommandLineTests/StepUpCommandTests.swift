import Foundation
import PasskeyClient
import PasskeyServer
import Testing

@testable import PasskeysCommandLine

/// `passkeys sign-in --step-up`, `passkeys idv decide` and `passkeys serve --identity-verification`: their usage
/// (no server needed).
@Suite("step-up and identity verification commands: usage")
struct StepUpCommandUsageTests {
    static let device = ["--server", "http://127.0.0.1:9", "--key-store", "unused-keys.json"]

    func expectUsage(
        _ arguments: [String],
        mentioning text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let result = await passkeys(arguments)
        #expect(result.exitCode == CommandResult.usage, "\(arguments)", sourceLocation: sourceLocation)
        #expect(result.standardError.contains(text), "\(result.standardError)", sourceLocation: sourceLocation)
    }

    @Test("sign-in: --transaction and --identity-verification need --step-up, which needs --user")
    func signInUsage() async {
        await expectUsage(["sign-in"] + Self.device + ["--user", "a", "--transaction", "Pay"], mentioning: "--step-up")
        await expectUsage(
            ["sign-in"] + Self.device + ["--user", "a", "--identity-verification"],
            mentioning: "--step-up"
        )
        await expectUsage(["sign-in"] + Self.device + ["--step-up", "--transaction", "Pay"], mentioning: "--user")
        await expectUsage(
            ["sign-in"] + Self.device + ["--user", "a", "--step-up", "--transaction", ""],
            mentioning: "--transaction"
        )
        // Valid: past parsing, the server is down.
        let down = await DeviceEnvironment.$overrides.withValue([DeviceEnvironment.apiKey: "pk_x"]) {
            await passkeys(["sign-in"] + Self.device + ["--user", "a", "--step-up", "--transaction", "Pay"])
        }
        #expect(down.exitCode == CommandResult.failure)
        #expect(down.standardError.contains("NETWORK_ERROR"))
    }

    @Test("idv decide: one decision, a known face match, a run id and --server")
    func decideUsage() async {
        let server = ["--server", "http://127.0.0.1:9"]
        await expectUsage(["idv", "decide", "idv_1"] + server, mentioning: "--approve")
        await expectUsage(["idv", "decide", "idv_1", "--approve", "--decline"] + server, mentioning: "--decline")
        await expectUsage(
            ["idv", "decide", "idv_1", "--approve", "--face-match", "maybe"] + server,
            mentioning: "--face-match"
        )
        await expectUsage(["idv", "decide", "--approve"] + server, mentioning: "run-id")
        await expectUsage(["idv", "decide", "idv_1", "--approve"], mentioning: "--server")
        await expectUsage(["idv"], mentioning: "Missing subcommand")
        // The usage line offers one decision of three, not all three.
        await expectUsage(["idv", "decide", "idv_1"] + server, mentioning: "(--approve | --decline | --review)")

        let noKey = await DeviceEnvironment.$overrides.withValue([:]) {
            await passkeys(["idv", "decide", "idv_1", "--review", "--face-match", "fail"] + server)
        }
        #expect(noKey.exitCode == CommandResult.failure)
        #expect(noKey.standardError.contains("INVALID_CONFIGURATION: PASSKEYS_API_KEY is not set"))
        let down = await DeviceEnvironment.$overrides.withValue([DeviceEnvironment.apiKey: "pk_x"]) {
            await passkeys(["idv", "decide", "idv_1", "--approve"] + server)
        }
        #expect(down.exitCode == CommandResult.failure)
        #expect(down.standardError.contains("NETWORK_ERROR"))
    }

    @Test("serve --identity-verification takes simulated or disabled")
    func serveFlag() async throws {
        // A missing configuration file stops serve after parsing: the flag was accepted.
        for provider in ["simulated", "disabled"] {
            let result = await passkeys(["serve", "--identity-verification", provider, "--config", "missing.yaml"])
            #expect(result.exitCode == CommandResult.usage)
            #expect(result.standardError.contains("missing.yaml"), "\(result.standardError)")
            #expect(!result.standardError.contains("--identity-verification"))
        }
        await expectUsage(["serve", "--identity-verification", "vendor"], mentioning: "--identity-verification")
    }

    @Test("the help lists idv and the new options")
    func help() async {
        #expect(await passkeys(["--help"]).standardOutput.contains("idv"))
        let signIn = await passkeys(["sign-in", "--help"]).standardOutput
        for option in ["--step-up", "--transaction", "--identity-verification"] { #expect(signIn.contains(option)) }
        let decide = await passkeys(["idv", "decide", "--help"]).standardOutput
        for option in ["--approve", "--decline", "--review", "--face-match", "--server"] {
            #expect(decide.contains(option))
        }
        #expect(await passkeys(["serve", "--help"]).standardOutput.contains("--identity-verification"))
    }
}

/// The same commands against a live in-process server. They need the server side of the feature (transactions,
/// the simulated identity verification provider).
@Suite("step-up and identity verification commands against a server")
struct StepUpCommandTests {
    @Test("sign-in --step-up --transaction prints the text and digest it signs, then the assurance")
    func transaction() async throws {
        try await DeviceCommandTests.withServer { setup in
            #expect(await setup.run(["register"] + setup.device + ["--user", "alice"]).exitCode == 0)
            let text = "Pay 25 € to Bob"
            let result = await setup.run(
                ["sign-in"] + setup.device + ["--user", "alice", "--step-up", "--transaction", text]
            )
            #expect(result.exitCode == 0, "\(result.standardError)")
            let output = result.standardOutput
            let signing = try #require(
                output.range(of: "Signing: \(text)\n  digest  \(TransactionDetails.digest(of: text))\n")
            )
            let signedIn = try #require(output.range(of: "Signed in as alice (step-up)."))
            #expect(signing.upperBound <= signedIn.lowerBound)
            #expect(output.contains("  assurance      passkey+uv\n"))
            #expect(output.contains("  transaction    \(text)\n"))
        }
    }

    @Test("sign-in --step-up --identity-verification: the simulated provider approves, assurance passkey+uv+idv")
    func identityVerification() async throws {
        try await DeviceCommandTests.withServer(identityVerificationProvider: "simulated") { setup in
            #expect(await setup.run(["register"] + setup.device + ["--user", "bob"]).exitCode == 0)
            let result = await setup.run(
                ["sign-in"] + setup.device + [
                    "--user", "bob", "--step-up", "--transaction", "Change the payout account",
                    "--identity-verification",
                ]
            )
            #expect(result.exitCode == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("Identity verification idv_"))
            #expect(result.standardOutput.contains("  assurance      passkey+uv+idv\n"))
            #expect(result.standardOutput.contains("  identity       approved"))
        }
    }

    @Test("idv decide decides a run and prints its status; an unknown run is NOT_FOUND with what to do")
    func decide() async throws {
        try await DeviceCommandTests.withServer(identityVerificationProvider: "simulated") { setup in
            let backend = PasskeyBackendAPI(
                serverBaseURL: try #require(URL(string: setup.server)),
                apiKey: DeviceCommandTests.apiKey
            )
            let attempt = try await backend.createRegistration(
                userId: "cai",
                userName: "cai",
                requireIdentityVerification: true
            )
            let runId = try #require(attempt.workflowRunId)
            let result = await setup.run(
                ["idv", "decide", runId, "--review", "--face-match", "fail", "--server", setup.server]
            )
            #expect(result.exitCode == 0, "\(result.standardError)")
            let run = try await backend.identityVerificationRun(workflowRunId: runId)
            #expect(result.standardOutput.hasPrefix("Run \(runId): \(run.status)\n"))
            #expect(result.standardOutput.contains("  user        cai\n"))
            #expect(result.standardOutput.contains("  face match  fail\n"))
            #expect(run.faceMatch == "fail")

            let unknown = await setup.run(["idv", "decide", "idv_unknown", "--approve", "--server", setup.server])
            #expect(unknown.exitCode == 1)
            #expect(unknown.standardError.contains("error: NOT_FOUND"))
            #expect(unknown.standardError.contains("--identity-verification simulated"))
        }
    }
}
