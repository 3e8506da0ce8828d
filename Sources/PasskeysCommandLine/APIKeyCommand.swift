import ArgumentParser
import Foundation
import PasskeyServer

/// `passkeys api-key`: backend API keys for a configuration file, kept there as hashes.
struct APIKeyCommand: CommandGroup {
    static let commandPath = "passkeys api-key"

    static let configuration = CommandConfiguration(
        commandName: "api-key",
        abstract: "Make a backend API key, or hash one, for the configuration's apiKeys.",
        discussion: """
            Each prints an entry for the configuration file's apiKeys list as one line of JSON (which a YAML file \
            takes as it is): {"name": …, "scopes": […], "sha256": …}. The file then holds only the key's SHA-256; \
            the key itself goes to your backend. Without --scope the entry has no scopes, which grants every scope \
            ("*").

            Scopes: \(APIScope.names.joined(separator: ", ")).
            """,
        subcommands: [APIKeyHashCommand.self, APIKeyNewCommand.self]
    )
}

/// The options of both: the entry's name and scopes.
struct APIKeyEntryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The key's name, as the audit log shows it (api-key:NAME).", valueName: "name"))
    var name = "backend"

    @Option(
        name: .customLong("scope"),
        help: ArgumentHelp("A scope the key grants; repeat for more (default: every scope).", valueName: "scope")
    )
    var scopes: [String] = []

    func validate() throws {
        guard !name.isEmpty else { throw ValidationError("--name must not be empty.") }
        for scope in scopes where APIScope(rawValue: scope) == nil {
            throw ValidationError(
                "'\(scope)' is not a scope; choose from \(APIScope.names.joined(separator: ", "))."
            )
        }
    }

    func entry(for secret: String) -> ServerConfiguration.APIKey {
        .hashing(secret, name: name, scopes: scopes.isEmpty ? nil : scopes.compactMap(APIScope.init(rawValue:)))
    }
}

/// `passkeys api-key hash`: reads a key from standard input (never an argument, which other users of the machine
/// and the shell's history could see) and prints its configuration entry.
struct APIKeyHashCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash",
        abstract: "Read an API key from standard input and print its apiKeys entry (its SHA-256, not the key)."
    )

    @OptionGroup var entry: APIKeyEntryOptions

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        environment.prompt("API key: ")
        let secret = (environment.readLine() ?? "").trimmingCharacters(in: .whitespaces)
        guard secret.count >= ServerConfiguration.APIKey.minimumKeyLength else {
            return CommandResult(
                exitCode: CommandResult.failure,
                standardError:
                    "error: an API key is at least \(ServerConfiguration.APIKey.minimumKeyLength) characters, read from standard input (such as: passkeys api-key new).\n"
            )
        }
        return CommandResult(
            exitCode: CommandResult.success,
            standardOutput: entry.entry(for: secret).configurationLine + "\n"
        )
    }
}

/// `passkeys api-key new`: a new random key, and its configuration entry.
struct APIKeyNewCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Make a new random API key: prints the key (for your backend), then its apiKeys entry."
    )

    @OptionGroup var entry: APIKeyEntryOptions

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        let secret = ServerConfiguration.APIKey.newSecret()
        return CommandResult(
            exitCode: CommandResult.success,
            standardOutput: "key: \(secret)\napiKeys entry: \(entry.entry(for: secret).configurationLine)\n"
        )
    }
}
