import ArgumentParser
import Foundation
import PasskeyClient

/// `passkeys keys`: the passkeys in this device's key store.
struct KeysCommand: CommandGroup {
    static let commandPath = "passkeys keys"

    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List or delete the passkeys in the device key store used by register and sign-in.",
        subcommands: [KeysListCommand.self, KeysDeleteCommand.self]
    )
}

struct KeysListCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the passkeys in the key store (never their private keys)."
    )

    @OptionGroup var store: KeyStoreOptions

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        let (keyStore, warning) = store.open()
        do throws(PasskeyError) {
            let credentials = try await SoftwareAuthenticator(keyStore: keyStore).credentials(rpDomain: nil)
                .sorted { $0.createdAt < $1.createdAt }
            guard !credentials.isEmpty else {
                return CommandResult(
                    exitCode: CommandResult.success,
                    standardOutput: "No passkeys in \(store.path).\n",
                    standardError: warning ?? ""
                )
            }
            let formatter = Date.ISO8601FormatStyle()
            var output = "\(credentials.count) passkey\(credentials.count == 1 ? "" : "s") in \(store.path):\n"
            for credential in credentials {
                let rows = [
                    ("credential", credential.credentialId),
                    ("rp", credential.rpDomain),
                    ("user", credential.userId ?? credential.userName),
                    ("created", credential.createdAt.formatted(formatter)),
                    ("last used", credential.lastUsedAt.map { $0.formatted(formatter) } ?? "never"),
                    ("usernameless", credential.isDiscoverable ? "yes" : "no"),
                ]
                output += "\n"
                for (label, value) in rows {
                    output += "  \(label.padding(toLength: 13, withPad: " ", startingAt: 0))\(value)\n"
                }
            }
            return CommandResult(exitCode: CommandResult.success, standardOutput: output, standardError: warning ?? "")
        } catch {
            return DeviceFailure.result(error, warning: warning, context: .init(keyStore: store.path))
        }
    }
}

struct KeysDeleteCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a passkey from the key store (it stays registered on the server until revoked there)."
    )

    @Argument(help: ArgumentHelp("The credential id (base64url), as keys list prints it.", valueName: "credential-id"))
    var credentialId: String

    @OptionGroup var store: KeyStoreOptions

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        let (keyStore, warning) = store.open()
        do throws(PasskeyError) {
            try await SoftwareAuthenticator(keyStore: keyStore).deleteCredential(id: credentialId)
            let output = """
                Deleted passkey \(credentialId) from \(store.path).
                It stays registered on the server until revoked there (DELETE /v1/credentials/\(credentialId)).

                """
            return CommandResult(exitCode: CommandResult.success, standardOutput: output, standardError: warning ?? "")
        } catch {
            return DeviceFailure.result(error, warning: warning, context: .init(keyStore: store.path))
        }
    }
}
