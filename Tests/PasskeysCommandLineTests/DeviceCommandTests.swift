import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PasskeyClient
import PasskeyServer
import PasskeyStorage
import ProcessTestSupport
import Testing

@testable import PasskeysCommandLine

/// `passkeys register`, `sign-in` and `keys` against a live in-process server, with the environment variables
/// set for the task only.
@Suite("passkeys device commands")
struct DeviceCommandTests {
    static let apiKey = "pk_test_cli_device_0123456789abcdef"

    struct Setup {
        let server: String
        let keyStore: String
        let environment: [String: String]

        /// Runs `passkeys` in-process with this setup's environment, and `stdin` as standard input.
        func run(
            _ arguments: [String],
            environment extra: [String: String] = [:],
            stdin: [UInt8] = []
        ) async -> CommandResult {
            await DeviceEnvironment.$overrides.withValue(environment.merging(extra) { _, new in new }) {
                await passkeys(arguments, stdin: stdin)
            }
        }

        var device: [String] { ["--server", server, "--origin", "https://localhost", "--key-store", keyStore] }
    }

    /// Runs `body` against a live server (with `identityVerificationProvider`, such as `simulated`, when given:
    /// set as `identityVerification.provider` through the configuration file's decoder).
    static func withServer(
        identityVerificationProvider: String? = nil,
        _ body: @escaping @Sendable (Setup) async throws -> Void
    ) async throws {
        // HummingbirdTesting .live listens on a random port whatever the configuration says.
        var configuration = ServerConfiguration(port: 8080)
        configuration.database = .memory
        configuration.apiKeys = [.init(name: "cli-tests", key: apiKey)]
        configuration.appleApps = [.init(teamId: "ABCDE12345", bundleId: "com.example.app")]
        if let identityVerificationProvider {
            var object = try #require(
                try JSONSerialization.jsonObject(with: JSONEncoder().encode(configuration)) as? [String: Any]
            )
            object["identityVerification"] = ["provider": identityVerificationProvider]
            configuration = try ServerConfiguration(jsonData: JSONSerialization.data(withJSONObject: object))
        }
        let service = try PasskeyService(
            configuration: configuration,
            store: MemoryPasskeyStore(),
            logger: Logger(label: "cli-device-tests")
        )
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await PasskeyApplication.build(service: service, logger: Logger(label: "cli-device-tests")).test(.live) {
            client in
            try await body(
                Setup(
                    server: "http://localhost:\(client.port!)",
                    keyStore: folder.url.appendingPathComponent("keys.json").path,
                    environment: [
                        DeviceEnvironment.apiKey: apiKey, DeviceEnvironment.passphrase: "cli test passphrase",
                        "HOME": folder.url.path,
                    ]
                )
            )
        }
    }

    /// The credential ids `keys list` printed.
    static func listedIDs(_ result: CommandResult) -> [String] {
        result.standardOutput.split(separator: "\n").compactMap { line in
            let content = line.drop { $0 == " " }
            return content.hasPrefix("credential ")
                ? String(content.dropFirst("credential".count).drop { $0 == " " }) : nil
        }
    }

    @Test("register, sign in with and without --user, list and delete")
    func lifecycle() async throws {
        try await Self.withServer { setup in
            let registered = await setup.run(
                ["register"] + setup.device + ["--user", "alice", "--display-name", "Alice Example"]
            )
            #expect(registered.exitCode == 0, "\(registered.standardError)")
            #expect(registered.standardOutput.contains("Registered a passkey for alice on localhost."))
            #expect(registered.standardError.isEmpty)

            let listed = await setup.run(["keys", "list", "--key-store", setup.keyStore])
            #expect(listed.exitCode == 0)
            let ids = Self.listedIDs(listed)
            #expect(ids.count == 1)
            #expect(listed.standardOutput.contains("alice"))
            #expect(registered.standardOutput.contains(ids[0]))

            let signedIn = await setup.run(["sign-in"] + setup.device + ["--user", "alice"])
            #expect(signedIn.exitCode == 0, "\(signedIn.standardError)")
            #expect(signedIn.standardOutput.contains("Signed in as alice."))
            #expect(signedIn.standardOutput.contains(ids[0]))

            let usernameless = await setup.run(["sign-in"] + setup.device)
            #expect(usernameless.exitCode == 0, "\(usernameless.standardError)")
            #expect(usernameless.standardOutput.contains("Signed in as alice (usernameless)."))

            let deleted = await setup.run(["keys", "delete", ids[0], "--key-store", setup.keyStore])
            #expect(deleted.exitCode == 0)
            #expect(deleted.standardOutput.contains("stays registered on the server"))
            #expect(
                await setup.run(["keys", "list", "--key-store", setup.keyStore]).standardOutput.contains(
                    "No passkeys in"
                )
            )

            let failed = await setup.run(["sign-in"] + setup.device + ["--user", "alice"])
            #expect(failed.exitCode == 1)
            #expect(failed.standardError.contains("error: PASSKEY_NOT_FOUND"))
            #expect(failed.standardError.contains("what to do: Register a passkey on this device first"))

            let missing = await setup.run(["keys", "delete", ids[0], "--key-store", setup.keyStore])
            #expect(missing.exitCode == 1)
            #expect(missing.standardError.contains("PASSKEY_NOT_FOUND"))
            #expect(missing.standardError.contains("passkeys keys list shows the ids it holds"))
            #expect(!missing.standardError.contains("Register a passkey"))
        }
    }

    @Test("registering twice on one device is PASSKEY_ALREADY_EXISTS with what to do")
    func registerTwice() async throws {
        try await Self.withServer { setup in
            #expect(await setup.run(["register"] + setup.device + ["--user", "bob"]).exitCode == 0)
            let again = await setup.run(["register"] + setup.device + ["--user", "bob"])
            #expect(again.exitCode == 1)
            #expect(again.standardError.contains("error: PASSKEY_ALREADY_EXISTS"))
            #expect(again.standardError.contains("passkeys sign-in"))
        }
    }

    @Test("the key store path comes from --key-store, PASSKEYS_KEY_STORE, or the user's config folder")
    func keyStorePath() async throws {
        try await Self.withServer { setup in
            let home = try #require(setup.environment["HOME"])
            let viaHome = await setup.run([
                "register", "--server", setup.server, "--origin", "https://localhost", "--user", "carol",
            ])
            #expect(viaHome.exitCode == 0, "\(viaHome.standardError)")
            #expect(FileManager.default.fileExists(atPath: "\(home)/.config/passkeys/keys.json"))

            let xdg = "\(home)/xdg"
            let viaXDG = await setup.run(
                ["register", "--server", setup.server, "--origin", "https://localhost", "--user", "dora"],
                environment: ["XDG_CONFIG_HOME": xdg]
            )
            #expect(viaXDG.exitCode == 0)
            #expect(FileManager.default.fileExists(atPath: "\(xdg)/passkeys/keys.json"))

            let custom = "\(home)/custom/keys.json"
            let viaEnvironment = await setup.run(
                ["register", "--server", setup.server, "--origin", "https://localhost", "--user", "emil"],
                environment: [DeviceEnvironment.keyStore: custom]
            )
            #expect(viaEnvironment.exitCode == 0)
            let attributes = try FileManager.default.attributesOfItem(atPath: custom)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
    }

    @Test("--save keeps the options and the response, and the verify command it prints verifies them")
    func saved() async throws {
        try await Self.withServer { setup in
            let folder = URL(fileURLWithPath: setup.keyStore).deletingLastPathComponent().appendingPathComponent(
                "saved"
            )
            let registered = await setup.run(["register"] + setup.device + ["--user", "hal", "--save", folder.path])
            #expect(registered.exitCode == 0, "\(registered.standardError)")
            let lines = registered.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let verify = try #require(lines.firstIndex { $0.hasPrefix("passkeys verify registration") })
            let command = lines[verify].split(separator: " ").map(String.init)
            let verified = await passkeys(Array(command.dropFirst()))
            #expect(verified.exitCode == 0, "\(verified.standardOutput)\(verified.standardError)")
            let inspected = await passkeys(["inspect", folder.appendingPathComponent("registration.json").path])
            #expect(inspected.standardOutput.contains("webauthn.create"))

            let signedIn = await setup.run(["sign-in"] + setup.device + ["--user", "hal", "--save", folder.path])
            #expect(signedIn.exitCode == 0, "\(signedIn.standardError)")
            for name in ["registration-options.json", "authentication-options.json", "authentication.json"] {
                #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
            }
            let inspectedSignIn = await passkeys(["inspect", folder.appendingPathComponent("authentication.json").path])
            #expect(inspectedSignIn.standardOutput.contains("webauthn.get"))
        }
    }

    @Test(
        "without PASSKEYS_KEY_STORE_PASSPHRASE the development passphrase is used, with a warning; another passphrase is refused, saying why"
    )
    func passphrase() async throws {
        try await Self.withServer { setup in
            let development = await setup.run(
                ["register"] + setup.device + ["--user", "finn"],
                environment: [DeviceEnvironment.passphrase: ""]
            )
            #expect(development.exitCode == 0)
            #expect(development.standardError.contains("warning: PASSKEYS_KEY_STORE_PASSPHRASE is not set"))

            let wrong = await setup.run(
                ["keys", "list", "--key-store", setup.keyStore],
                environment: [DeviceEnvironment.passphrase: "another"]
            )
            #expect(wrong.exitCode == 1)
            #expect(wrong.standardError.contains("error: KEY_STORE_WRONG_PASSPHRASE"))
            #expect(
                wrong.standardError.contains(
                    "what to do: If this key store was made while PASSKEYS_KEY_STORE_PASSPHRASE was not set, it uses the development passphrase: unset the variable"
                )
            )
        }
    }

    @Test("failures print the code and what to do, and exit non-zero")
    func failures() async throws {
        try await Self.withServer { setup in
            let noKey = await setup.run(
                ["register"] + setup.device + ["--user", "gail"],
                environment: [DeviceEnvironment.apiKey: ""]
            )
            #expect(noKey.exitCode == 1)
            #expect(noKey.standardError.contains("INVALID_CONFIGURATION: PASSKEYS_API_KEY is not set"))

            let wrongKey = await setup.run(
                ["register"] + setup.device + ["--user", "gail"],
                environment: [DeviceEnvironment.apiKey: "wrong"]
            )
            #expect(wrongKey.exitCode == 1)
            #expect(wrongKey.standardError.contains("INVALID_CONFIGURATION: The server refused the API key"))
            #expect(wrongKey.standardError.contains("what to do: Set PASSKEYS_API_KEY to one of the server's"))

            let unknownUser = await setup.run(["sign-in"] + setup.device + ["--user", "nobody"])
            #expect(unknownUser.exitCode == 1)
            #expect(unknownUser.standardError.contains("error: NOT_FOUND"))

            let wrongOrigin = await setup.run([
                "register", "--server", setup.server, "--key-store", setup.keyStore, "--origin", "https://evil.example",
                "--user", "gail",
            ])
            #expect(wrongOrigin.exitCode == 1)
            #expect(wrongOrigin.standardError.contains("RELYING_PARTY_MISMATCH"))

            let badServer = await setup.run([
                "register", "--server", "http://example.com", "--key-store", setup.keyStore, "--user", "gail",
            ])
            #expect(badServer.exitCode == 2)
            #expect(badServer.standardError.contains("INVALID_INPUT"))

            let down = await setup.run(["sign-in", "--server", "http://127.0.0.1:9", "--key-store", setup.keyStore])
            #expect(down.exitCode == 1)
            #expect(down.standardError.contains("error: NETWORK_ERROR"))
            #expect(down.standardError.contains("passkeys serve"))
        }
    }

    @Test("the device commands are listed in the help and need their options")
    func usage() async {
        let help = await passkeys(["--help"])
        for command in ["register", "sign-in", "keys"] { #expect(help.standardOutput.contains(command)) }
        #expect(await passkeys(["register", "--user", "x"]).exitCode == 2)
        #expect(await passkeys(["keys"]).exitCode == 2)
        #expect(await passkeys(["keys", "delete"]).exitCode == 2)
    }
}

/// The real executable reads the device commands' settings from its process environment.
@Suite("passkeys device commands as a process")
struct DeviceCommandProcessTests {
    @Test("PASSKEYS_KEY_STORE and PASSKEYS_KEY_STORE_PASSPHRASE come from the environment")
    func environment() async throws {
        let executable = try #require(ExecutableTests.executable, "the passkeys executable is not built")
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("keys.json").path

        func run(
            _ arguments: [String],
            passphrase: String?
        ) async throws -> (
            status: Int32, output: String, error: String
        ) {
            var environment = ProcessInfo.processInfo.environment
            environment[DeviceEnvironment.keyStore] = path
            environment[DeviceEnvironment.passphrase] = passphrase
            let run = try await ChildProcess.run(executable.path, arguments, environment: environment)
            return (run.status, run.standardOutput, run.standardError)
        }

        let empty = try await run(["keys", "list"], passphrase: "process passphrase")
        #expect(empty.status == 0)
        #expect(empty.output == "No passkeys in \(path).\n")
        #expect(empty.error.isEmpty)

        let warned = try await run(["keys", "list"], passphrase: nil)
        #expect(warned.status == 0)
        #expect(warned.error.contains("warning: PASSKEYS_KEY_STORE_PASSPHRASE is not set"))

        let missing = try await run(["keys", "delete", "AAAA"], passphrase: "process passphrase")
        #expect(missing.status == 1)
        #expect(missing.error.contains("error: PASSKEY_NOT_FOUND"))

        // A key store made without the variable: the warning came when it was made; later commands are quiet, and
        // setting the variable afterwards says what happened and what to do.
        let developmentStore = EncryptedFileKeyStore(
            path: path,
            protection: .passphrase(DeviceEnvironment.developmentPassphrase)
        )
        try await developmentStore.update { _ in }
        let quiet = try await run(["keys", "list"], passphrase: nil)
        #expect(quiet.status == 0)
        #expect(quiet.error.isEmpty, "\(quiet.error)")
        let mismatched = try await run(["keys", "list"], passphrase: "chosen later")
        #expect(mismatched.status == 1)
        #expect(mismatched.error.contains("KEY_STORE_WRONG_PASSPHRASE"))
        #expect(
            mismatched.error.contains("made while PASSKEYS_KEY_STORE_PASSPHRASE was not set"),
            "\(mismatched.error)"
        )
        #expect(mismatched.error.contains("unset the variable"))
    }
}
