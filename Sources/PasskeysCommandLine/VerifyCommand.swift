import ArgumentParser
import Foundation
import WebAuthn

/// `passkeys verify`: the group of the two ceremony verifications.
struct VerifyCommand: CommandGroup {
    static let commandPath = "passkeys verify"

    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a registration or authentication response as a relying party does (WebAuthn §7.1, §7.2).",
        discussion: """
            Prints one JSON object on standard output: {"verified": true, …} with exit code 0, or \
            {"verified": false, "error": {"code", "message"}} with exit code 1. The code is the stable \
            WebAuthnError code (CHALLENGE_MISMATCH, ORIGIN_NOT_ALLOWED, RP_ID_MISMATCH, …), or \
            FILE_UNREADABLE when the response file cannot be read. Bad usage exits with code 2 and a \
            message on standard error.
            """,
        subcommands: [VerifyRegistrationCommand.self, VerifyAuthenticationCommand.self]
    )
}

/// The options both ceremonies take: what the relying party expected.
struct CeremonyOptions: ParsableArguments {
    @Option(
        name: .customLong("response"),
        help: ArgumentHelp(
            "The response: the JSON of PublicKeyCredential.toJSON() (WebAuthn Level 3), as the browser sent it. - reads standard input.",
            valueName: "file"
        )
    )
    var response: String

    @Option(
        name: .customLong("challenge"),
        help: ArgumentHelp(
            "The challenge the relying party issued for this ceremony, as base64url.",
            valueName: "b64url"
        ),
        transform: OptionValues.base64URL
    )
    var challenge: [UInt8]

    @Option(
        name: .customLong("origin"),
        help: ArgumentHelp(
            "An origin the ceremony may run on, such as https://example.com (repeat for several).",
            valueName: "origin"
        )
    )
    var origins: [String]

    @Option(
        name: .customLong("rp-id"),
        help: ArgumentHelp("The relying party ID, such as example.com.", valueName: "rpid")
    )
    var relyingPartyID: String

    @Flag(
        name: .customLong("require-user-verification"),
        help: "Require the UV flag (userVerification: \"required\"); by default it is not required."
    )
    var requireUserVerification = false

    @Option(
        name: .customLong("at"),
        help: ArgumentHelp(
            "The verification time (for certificate validity), ISO 8601, such as 2026-01-31T12:00:00Z (default: now).",
            valueName: "iso8601"
        ),
        transform: OptionValues.time
    )
    var time: Date?

    func validate() throws {
        guard !origins.isEmpty else { throw ValidationError("Missing expected argument '--origin <origin>'") }
        guard !relyingPartyID.isEmpty else { throw ValidationError("--rp-id must not be empty.") }
    }

    var originPolicy: OriginPolicy { OriginPolicy(allowedOrigins: Set(origins)) }
    var userVerification: UserVerificationRequirement { requireUserVerification ? .required : .preferred }
}

extension VerificationOutput {
    /// Runs a verification and turns its outcome into the command's result: the JSON and exit code 0 or 1.
    static func result(_ verification: () async throws(CommandLineError) -> OutputJSON) async -> CommandResult {
        do throws(CommandLineError) {
            let output = try await verification()
            return CommandResult(exitCode: CommandResult.success, standardOutput: output.text)
        } catch {
            return CommandResult(exitCode: CommandResult.failure, standardOutput: failure(error).text)
        }
    }
}

extension CommandLineError {
    /// Runs `body`, reporting a ``WebAuthnError`` as a ``CommandLineError``.
    static func reporting<T>(_ body: () async throws(WebAuthnError) -> T) async throws(CommandLineError) -> T {
        do throws(WebAuthnError) {
            return try await body()
        } catch {
            throw CommandLineError(error)
        }
    }
}
