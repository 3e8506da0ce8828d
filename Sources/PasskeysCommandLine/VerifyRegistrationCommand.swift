import ArgumentParser
import Foundation
import WebAuthn
import X509

/// `passkeys verify registration`: every check of WebAuthn §7.1 on a registration response.
struct VerifyRegistrationCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "registration",
        abstract: "Verify a registration response (navigator.credentials.create()).",
        discussion: """
            Checks the client data (type, challenge, origin), the authenticator data (RP ID hash, user \
            presence, user verification when required, flags), the credential and its algorithm, and the \
            attestation statement.

            Without --trust-anchor the attestation statement is still fully verified (its signature and \
            certificate chain), but the chain need not reach a root and "trusted" is false. With \
            --trust-anchor (PEM files, several certificates per file allowed) the anchors apply to every \
            attestation format, and the chain must verify to one of them at the verification time (--at).

            On success prints {"verified": true, "fmt", "attestationType", "trusted", "aaguid", \
            "credentialId", "publicKey", "algorithm", "signCount", "userVerified", "backupEligible", \
            "backupState"}. "publicKey" is the credential public key (COSE, base64url): store it, and \
            pass it to `passkeys verify authentication --public-key`.

            With --algorithm (repeatable) the credential's algorithm must be one the relying party offered, \
            as an RP that offered fewer algorithms than the default would check (ALGORITHM_NOT_ALLOWED otherwise).

            Example:
              passkeys verify registration --response reg.json --challenge CHALLENGE \\
                  --origin https://example.com --rp-id example.com --trust-anchor roots.pem --algorithm -7
            """
    )

    @OptionGroup var ceremony: CeremonyOptions

    @Option(
        name: .customLong("trust-anchor"),
        help: ArgumentHelp(
            "A PEM file of attestation root certificates the chain must verify to (repeat for several files).",
            valueName: "pem-file"
        ),
        transform: OptionValues.trustAnchors
    )
    var trustAnchors: [[Certificate]] = []

    // Unconditional: the identifiers are negative numbers, which would otherwise read as options.
    @Option(
        name: .customLong("algorithm"),
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "A COSE algorithm the relying party offered in pubKeyCredParams, such as -7 (ES256) or -257 (RS256); repeat for each. Default: every recommended algorithm (RS1, -65535, only when given).",
            valueName: "cose-id"
        ),
        transform: OptionValues.coseAlgorithm
    )
    var algorithms: [COSEAlgorithmIdentifier] = []

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        await VerificationOutput.result { () async throws(CommandLineError) -> OutputJSON in
            let response = try Self.decode(try InputFile.read(ceremony.response, in: environment))
            let anchors = trustAnchors.flatMap { $0 }
            let policy = AttestationPolicy(
                trustAnchors: anchors.isEmpty
                    ? [:] : Dictionary(uniqueKeysWithValues: AttestationFormat.supported.map { ($0, anchors) })
            )
            let verification = RegistrationCeremony(
                challenge: ceremony.challenge,
                relyingPartyID: ceremony.relyingPartyID,
                origins: ceremony.originPolicy,
                userVerification: ceremony.userVerification,
                allowedAlgorithms: algorithms.isEmpty ? COSEAlgorithmIdentifier.recommended : algorithms,
                attestation: policy
            )
            let time = ceremony.time ?? environment.now()
            let result = try await CommandLineError.reporting { () async throws(WebAuthnError) in
                try await verification.verify(response, at: time)
            }
            return VerificationOutput.registration(result)
        }
    }

    /// Decodes the response JSON; when it is an authentication response, says so.
    static func decode(_ bytes: [UInt8]) throws(CommandLineError) -> RegistrationResponseJSON {
        do throws(WebAuthnError) {
            return try RegistrationResponseJSON(jsonBytes: bytes)
        } catch {
            if error.code == .malformedJSON, (try? AuthenticationResponseJSON(jsonBytes: bytes)) != nil {
                throw CommandLineError(
                    error.code,
                    error.reason
                        + " This is an authentication response (it has a signature): verify it with `passkeys verify authentication`."
                )
            }
            throw CommandLineError(error)
        }
    }
}
