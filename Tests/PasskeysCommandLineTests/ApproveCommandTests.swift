import Foundation
import PasskeyClient
import Synchronization
import Testing

@testable import PasskeysCommandLine

/// `passkeys approve` as the phone of a cross-device approval, against a live in-process server whose backend hands
/// sessions off.
@Suite("passkeys approve")
struct ApproveCommandTests {
    /// A backend for the setup's server, a registered `user` on the CLI's key store, and a handed-off session.
    static func handoff(
        _ setup: DeviceCommandTests.Setup,
        user: String,
        transaction: String? = nil
    ) async throws -> (PasskeyBackendAPI, AuthenticationSession, Handoff) {
        #expect(await setup.run(["register"] + setup.device + ["--user", user]).exitCode == 0)
        let backend = PasskeyBackendAPI(
            serverBaseURL: try #require(URL(string: setup.server)),
            apiKey: DeviceCommandTests.apiKey
        )
        let session = try await backend.createAuthentication(
            userId: user,
            mode: transaction == nil ? "standard" : "stepUp",
            transaction: transaction
        )
        return (backend, session, try await backend.createHandoff(sessionId: session.biometricPasskeySessionId))
    }

    static func status(_ setup: DeviceCommandTests.Setup, _ handoff: Handoff) async throws -> String {
        try await PasskeyClientAPI(serverBaseURL: try #require(URL(string: setup.server))).handoffStatus(
            crossPlatformSessionId: handoff.crossPlatformSessionId,
            pollToken: handoff.pollToken
        ).status
    }

    @Test("approve LINK --code: claims, prints the transaction, signs; the backend redeems with the poll token")
    func approve() async throws {
        try await DeviceCommandTests.withServer { setup in
            let (backend, session, handoff) = try await Self.handoff(
                setup,
                user: "alice",
                transaction: "Pay 25 € to Bob"
            )
            let result = await setup.run(
                ["approve", handoff.deepLink] + setup.device + ["--code", handoff.verificationCode]
            )
            #expect(result.exitCode == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("  approving    Pay 25 € to Bob\n"))
            #expect(result.standardOutput.contains("Number confirmed.\n"))
            #expect(result.standardOutput.contains("the other device signs in"))
            #expect(try await Self.status(setup, handoff) == "approved")
            let redeemed = try await backend.redeemAuthentication(
                sessionId: session.biometricPasskeySessionId,
                resultToken: handoff.pollToken
            )
            #expect(redeemed.userId == "alice")

            let again = await setup.run(["approve", handoff.deepLink] + setup.device + ["--code", "00"])
            #expect(again.exitCode == 1)
            #expect(again.standardError.contains("HANDOFF_ALREADY_CLAIMED"))
            #expect(again.standardError.contains("what to do: Start the sign-in again"))
        }
    }

    @Test("the number can come from standard input; a wrong one fails with the tries left")
    func typedNumber() async throws {
        try await DeviceCommandTests.withServer { setup in
            let (_, _, handoff) = try await Self.handoff(setup, user: "bea")
            let wrong = String(format: "%02d", (Int(handoff.verificationCode)! + 1) % 100)
            let failed = await setup.run(
                ["approve", handoff.handoffToken] + setup.device,
                stdin: Array("\(wrong)\n".utf8)
            )
            #expect(failed.exitCode == 1)
            #expect(failed.standardError.contains("HANDOFF_CODE_MISMATCH"))
            #expect(failed.standardError.contains("2 more tries"))
            #expect(try await Self.status(setup, handoff) == "claimed")

            let (_, _, second) = try await Self.handoff(setup, user: "bea2")
            let typed = await setup.run(
                ["approve", second.handoffToken] + setup.device,
                stdin: Array(" \(second.verificationCode) \n".utf8)
            )
            #expect(typed.exitCode == 0, "\(typed.standardError)")
            #expect(try await Self.status(setup, second) == "approved")
        }
    }

    @Test("a typed number is asked again on the same claim after a wrong one; what is approved is shown once")
    func retypedNumber() async throws {
        try await DeviceCommandTests.withServer { setup in
            let (_, _, handoff) = try await Self.handoff(setup, user: "eve", transaction: "Pay 9 € to Ida")
            let wrong = String(format: "%02d", (Int(handoff.verificationCode)! + 1) % 100)
            let prompts = Mutex<[String]>([])
            let environment = CommandEnvironment(
                readStandardInput: { Array("\(wrong)\n\(handoff.verificationCode)\n".utf8) },
                now: { testNow },
                prompt: { text in prompts.withLock { $0.append(text) } }
            )
            let result = await DeviceEnvironment.$overrides.withValue(setup.environment) {
                await PasskeysTool.run(["approve", handoff.handoffToken] + setup.device, environment: environment)
            }
            #expect(result.exitCode == 0, "\(result.standardError)")
            #expect(try await Self.status(setup, handoff) == "approved")
            let asked = prompts.withLock { $0 }
            #expect(asked.count == 2)
            #expect(asked.first?.contains("  approving    Pay 9 € to Ida\n") == true)
            #expect(asked.last?.contains("Type the number again") == true)
            #expect(
                !result.standardOutput.contains("Claimed"),
                "shown with the question already: \(result.standardOutput)"
            )
            #expect(result.standardOutput.contains("Number confirmed.\n"))

            // With --code nothing is asked, and what is approved is printed once.
            let (_, _, second) = try await Self.handoff(setup, user: "eve2", transaction: "Pay 3 € to Jo")
            let silentEnvironment = CommandEnvironment(
                readStandardInput: { [] },
                now: { testNow },
                prompt: { text in prompts.withLock { $0.append(text) } }
            )
            let coded = await DeviceEnvironment.$overrides.withValue(setup.environment) {
                await PasskeysTool.run(
                    ["approve", second.deepLink] + setup.device + ["--code", second.verificationCode],
                    environment: silentEnvironment
                )
            }
            #expect(coded.exitCode == 0, "\(coded.standardError)")
            #expect(prompts.withLock { $0.count } == 2)
            #expect(coded.standardOutput.components(separatedBy: "Claimed the sign-in").count == 2)
        }
    }

    @Test("without --server the server is the link's origin; a bare token needs --server")
    func serverFromTheLink() {
        #expect(ApproveCommand.origin(of: "http://localhost:8080/approve#pkh_x") == "http://localhost:8080")
        #expect(ApproveCommand.origin(of: "https://example.com/approve#pkh_x") == "https://example.com")
        #expect(ApproveCommand.origin(of: "pkh_x") == nil)
        #expect(ApproveCommand.origin(of: "myapp://approve#pkh_x") == nil)
    }

    @Test("--reject: the other device reads rejected")
    func rejection() async throws {
        try await DeviceCommandTests.withServer { setup in
            let (_, _, handoff) = try await Self.handoff(setup, user: "cy")
            let result = await setup.run(["approve", handoff.deepLink, "--reject"] + setup.device)
            #expect(result.exitCode == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("Rejected"))
            #expect(try await Self.status(setup, handoff) == "rejected")
        }
    }

    @Test("usage: a two-digit --code, not with --reject; no number at all is said so")
    func usage() async throws {
        let device = ["--server", "http://127.0.0.1:9", "--key-store", "unused-keys.json"]
        for arguments in [["--code", "4"], ["--code", "4x"], ["--code", "١٢"], ["--reject", "--code", "42"]] {
            let result = await passkeys(["approve", "pkh_x"] + device + arguments)
            #expect(result.exitCode == CommandResult.usage, "\(arguments)")
            #expect(result.standardError.contains("--code"), "\(result.standardError)")
        }
        try await DeviceCommandTests.withServer { setup in
            let (_, _, handoff) = try await Self.handoff(setup, user: "dot")
            let silent = await setup.run(["approve", handoff.handoffToken] + setup.device)
            #expect(silent.exitCode == CommandResult.usage)
            #expect(silent.standardError.contains("No number was given"))
        }
    }
}
