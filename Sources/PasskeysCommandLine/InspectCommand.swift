import ArgumentParser
import WebAuthn

/// `passkeys inspect`: decodes WebAuthn data and prints it readably.
struct InspectCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract:
            "Decode a credential, attestation object, authenticator data, client data or COSE key, and print it readably.",
        discussion: """
            FILE holds one of: a credential JSON (PublicKeyCredential.toJSON() of a registration or an \
            authentication); an attestationObject, authenticatorData, clientDataJSON or COSE public key, \
            as base64url text (quotes copied from JSON are allowed) or as raw bytes; or client data as \
            JSON text. The kind is detected.

            Prints the ceremony type, rpIdHash, flags (UP UV BE BS AT ED), signCount, AAGUID, credential \
            id, public key (kty, alg, curve, key size, and its base64url COSE form for --public-key), \
            extension outputs, the attestation format and statement fields (certificate subjects, issuers \
            and validity), and the client data (type, origin, challenge, crossOrigin, topOrigin). Nothing \
            is verified: use `passkeys verify` for that.

            Exit codes: 0 decoded; 1 the input cannot be read or decoded (what was decoded is printed, \
            then "error: CODE: message" on standard error); 2 bad usage.
            """
    )

    @Argument(help: ArgumentHelp("The file to inspect; - reads standard input.", valueName: "file"))
    var file: String

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        let input: [UInt8]
        do throws(CommandLineError) {
            input = try InputFile.read(file, in: environment)
        } catch {
            return Self.failure(error, partialText: "")
        }
        do throws(InspectionFailure) {
            return CommandResult(exitCode: CommandResult.success, standardOutput: try Inspection.render(input))
        } catch {
            return Self.failure(error.error, partialText: error.partialText)
        }
    }

    static func failure(_ error: CommandLineError, partialText: String) -> CommandResult {
        CommandResult(
            exitCode: CommandResult.failure,
            standardOutput: partialText,
            standardError: "error: \(error.code.rawValue): \(error.message)\n"
        )
    }
}
