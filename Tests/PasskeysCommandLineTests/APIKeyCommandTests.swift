import Crypto
import Foundation
import PasskeyServer
import PasskeysCommandLine
import Testing

/// `passkeys api-key hash` reads a key from standard input and prints its `apiKeys` entry, the key's SHA-256 and
/// never the key; `passkeys api-key new` makes a key and its entry. What they print is a configuration the server
/// accepts, and the key it names opens the backend API.
@Suite("passkeys api-key")
struct APIKeyCommandTests {
    static let key = "a-backend-key-from-stdin-0123456789"

    static func entry(_ line: Substring) throws -> ServerConfiguration.APIKey {
        try JSONDecoder().decode(ServerConfiguration.APIKey.self, from: Data(line.utf8))
    }

    @Test("hash reads the key from standard input and prints its entry with the scopes asked for")
    func hashPrintsTheEntry() async throws {
        let result = await PasskeysTool.run(
            ["api-key", "hash", "--name", "registrar", "--scope", "registrations", "--scope", "credentials:read"],
            environment: CommandEnvironment(standardInput: Array((Self.key + "\n").utf8))
        )
        #expect(result.exitCode == CommandResult.success, "\(result)")
        #expect(!result.standardOutput.contains(Self.key))
        let entry = try Self.entry(result.standardOutput.dropLast())
        #expect(entry.name == "registrar")
        #expect(entry.key == nil)
        #expect(entry.sha256 == SHA256.hash(data: Array(Self.key.utf8)).map { String(format: "%02x", $0) }.joined())
        #expect(entry.scopes == ["registrations", "credentials:read"])
        let configuration = try ServerConfiguration(
            jsonData: Data(#"{"apiKeys": [\#(result.standardOutput.dropLast())]}"#.utf8)
        )
        try configuration.validate()
        #expect(configuration.apiKeys == [entry])
    }

    @Test("hash without --scope prints an entry without scopes (every scope)")
    func hashWithoutScopes() async throws {
        let result = await PasskeysTool.run(
            ["api-key", "hash"],
            environment: CommandEnvironment(standardInput: Array(Self.key.utf8))
        )
        let entry = try Self.entry(result.standardOutput.dropLast())
        #expect(entry.name == "backend" && entry.scopes == nil)
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let input: String
        let exitCode: Int32
        let message: String
        var testDescription: String { "\(arguments.joined(separator: " ")) with \(input.debugDescription)" }
    }

    static let refusals = [
        Refusal(arguments: ["api-key", "hash"], input: "short-key\n", exitCode: 1, message: "at least 24 characters"),
        Refusal(arguments: ["api-key", "hash"], input: "", exitCode: 1, message: "at least 24 characters"),
        Refusal(
            arguments: ["api-key", "hash", "--scope", "admin"],
            input: key,
            exitCode: 2,
            message: "'admin' is not a scope"
        ),
    ]

    @Test("hash refuses a short or missing key (1), and an unknown scope (2)", arguments: refusals)
    func hashRefuses(_ refusal: Refusal) async {
        let result = await PasskeysTool.run(
            refusal.arguments,
            environment: CommandEnvironment(standardInput: Array(refusal.input.utf8))
        )
        #expect(result.exitCode == refusal.exitCode)
        #expect(result.standardError.contains(refusal.message), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("new prints a fresh key and the entry of its hash")
    func newMakesAKey() async throws {
        let first = await PasskeysTool.run(["api-key", "new", "--scope", "console"])
        let second = await PasskeysTool.run(["api-key", "new", "--scope", "console"])
        #expect(first.exitCode == CommandResult.success)
        let lines = first.standardOutput.split(separator: "\n")
        #expect(lines.count == 2)
        let key = try #require(lines.first?.dropFirst("key: ".count))
        #expect(key.hasPrefix("pk_") && key.count >= 24)
        #expect(!second.standardOutput.contains(key))
        let entry = try Self.entry(try #require(lines.last?.dropFirst("apiKeys entry: ".count)))
        #expect(entry == .hashing(String(key), name: "backend", scopes: [.console]))
    }
}
