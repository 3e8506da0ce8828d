import ArgumentParser
import Foundation

/// `passkeys`: developer tools for WebAuthn relying parties.
struct PasskeysCommand: CommandGroup {
    static let commandPath = "passkeys"

    static let configuration = CommandConfiguration(
        commandName: "passkeys",
        abstract: "The swift-passkeys server and developer tools: serve, and verify or inspect WebAuthn responses.",
        discussion: """
            Run the passkey server (a local instance on http://localhost:8080 without any configuration):

              passkeys serve

            Verify a response the way a relying party does, to find out why a ceremony fails:

              passkeys verify registration --response reg.json --challenge CHALLENGE \\
                  --origin https://example.com --rp-id example.com
              passkeys verify authentication --response auth.json --challenge CHALLENGE \\
                  --origin https://example.com --rp-id example.com \\
                  --public-key COSE_KEY --sign-count 41

            Or decode a credential, attestation object, authenticator data, client data or COSE key:

              passkeys inspect reg.json

            A FILE of - reads standard input. Exit codes: 0 verified (or inspected); 1 not verified, \
            or the input cannot be read or decoded; 2 bad usage.
            """,
        subcommands: [
            ServeCommand.self, AssociationCommand.self, VerifyCommand.self, InspectCommand.self, RegisterCommand.self,
            SignInCommand.self, ApproveCommand.self, KeysCommand.self, IdentityVerificationCommand.self,
            RecoverCommand.self, BackupCommand.self, RestoreCommand.self, APIKeyCommand.self, AuditCommand.self,
            SessionsCommand.self,
        ]
    )
}

/// A command that only groups subcommands.
protocol CommandGroup: AsyncParsableCommand {
    /// The words that invoke it, such as `passkeys verify`.
    static var commandPath: String { get }
}

/// Runs `passkeys` commands: parses arguments, runs the command, and maps outcomes to exit codes
/// (0 success, 1 failure, 2 bad usage; `--help` exits 0).
public enum PasskeysTool {
    /// Runs the tool with `arguments` (without the program name) and returns what it would print and its exit
    /// code, without printing or exiting.
    public static func run(_ arguments: [String], environment: CommandEnvironment = .process) async -> CommandResult {
        let command: any ParsableCommand
        do {
            command = try PasskeysCommand.parseAsRoot(Base64URLArguments.normalize(arguments))
        } catch {
            return result(for: error)
        }
        if let executable = command as? any ExecutableCommand {
            return await executable.execute(in: environment)
        }
        if let group = command as? any CommandGroup {
            // A command group without a subcommand: bad usage, as for any missing argument.
            let name = type(of: group).commandPath
            let subcommands = type(of: group).configuration.subcommands.compactMap { $0.configuration.commandName }
            return CommandResult(
                exitCode: CommandResult.usage,
                standardError: """
                    Error: Missing subcommand (\(subcommands.joined(separator: " or "))).
                    Usage: \(name) <subcommand>
                      See '\(name) --help' for more information.

                    """
            )
        }
        // ArgumentParser's built-in commands (such as completion scripts) print by themselves.
        var builtIn = command
        do {
            try builtIn.run()
        } catch {
            return result(for: error)
        }
        return CommandResult(exitCode: CommandResult.success)
    }

    /// The executable's entry point: runs with the process's arguments, prints, and exits with the result's code.
    public static func main() async -> Never {
        let result = await run(Array(CommandLine.arguments.dropFirst()))
        result.write()
        exit(result.exitCode)
    }

    /// Help (exit 0) or a usage error (exit 2, where ArgumentParser would use 64).
    static func result(for error: any Error) -> CommandResult {
        let message = PasskeysCommand.fullMessage(for: error)
        let code = PasskeysCommand.exitCode(for: error)
        if code == .success {
            return CommandResult(exitCode: CommandResult.success, standardOutput: message.isEmpty ? "" : message + "\n")
        }
        let exitCode = code == .validationFailure ? CommandResult.usage : code.rawValue
        return CommandResult(exitCode: exitCode, standardError: message + "\n")
    }
}
