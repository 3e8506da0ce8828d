import ArgumentParser
import Foundation
import PasskeyClient

/// `passkeys idv`: the server's simulated identity verification provider.
struct IdentityVerificationCommand: CommandGroup {
    static let commandPath = "passkeys idv"

    static let configuration = CommandConfiguration(
        commandName: "idv",
        abstract: "Decide identity verification runs of a server with the simulated provider (development, demos).",
        subcommands: [IdentityVerificationDecideCommand.self]
    )
}

/// `passkeys idv decide`: plays the identity verification vendor for one run.
struct IdentityVerificationDecideCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decide",
        abstract: "Approve, decline or send to review an identity verification run, and print its status.",
        usage:
            "passkeys idv decide <run-id> (--approve | --decline | --review) [--face-match pass|fail] --server <url>",
        discussion: """
            Posts the decision with the backend API key in PASSKEYS_API_KEY \
            (POST /v1/identity-verification/runs/RUN_ID/decision). Only a server started with \
            --identity-verification simulated accepts it; any other answers NOT_FOUND.

              PASSKEYS_API_KEY=pk_dev_… passkeys idv decide idv_… --approve --server http://localhost:8080

            Exit codes: 0 decided; 1 failed (the error code and what to do are printed); 2 bad usage.
            """
    )

    /// The decision, as flags.
    enum Decision: String, EnumerableFlag {
        case approve, decline, review

        var decision: IdentityVerificationDecision {
            switch self {
            case .approve: .approved
            case .decline: .declined
            case .review: .review
            }
        }

        static func help(for value: Self) -> ArgumentHelp? {
            switch value {
            case .approve: "Approve the run: the flow goes on."
            case .decline: "Decline the run: the flow fails with WORKFLOW_DECLINED."
            case .review: "Send the run to review: the flow fails with WORKFLOW_UNDER_REVIEW."
            }
        }
    }

    enum FaceMatch: String, ExpressibleByArgument, CaseIterable {
        case pass, fail

        var faceMatch: IdentityVerificationFaceMatch {
            switch self {
            case .pass: .pass
            case .fail: .fail
            }
        }
    }

    @Argument(help: ArgumentHelp("The run's id (workflowRunId, idv_…).", valueName: "run-id"))
    var workflowRunId: String

    @Flag var decision: Decision

    @Option(name: .customLong("face-match"), help: "The face match to report with the decision.")
    var faceMatch: FaceMatch?

    @Option(help: ArgumentHelp("The passkey server's base URL, such as http://localhost:8080.", valueName: "url"))
    var server: String

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        let context = DeviceFailure.Context(server: server, workflowRunId: workflowRunId)
        do throws(PasskeyError) {
            let backend = PasskeyBackendAPI(
                serverBaseURL: try DeviceOptions.serverURL(server),
                apiKey: try DeviceOptions.apiKey()
            )
            let run = try await backend.decideIdentityVerificationRun(
                workflowRunId: workflowRunId,
                decision: decision.decision,
                faceMatch: faceMatch?.faceMatch
            )
            var output = """
                Run \(run.workflowRunId): \(run.status)
                  purpose     \(run.purpose)
                  user        \(run.userId)

                """
            if let faceMatch = run.faceMatch { output += "  face match  \(faceMatch)\n" }
            output += "  expires     \(run.expiresAt.formatted(Date.ISO8601FormatStyle()))\n"
            return CommandResult(exitCode: CommandResult.success, standardOutput: output)
        } catch {
            return DeviceFailure.result(error, context: context)
        }
    }
}
