import ArgumentParser
import WebAuthn

/// `passkeys verify authentication`: every check of WebAuthn §7.2 on an authentication response.
struct VerifyAuthenticationCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authentication",
        abstract: "Verify an authentication response (navigator.credentials.get()) with a stored credential.",
        discussion: """
            Checks the credential id, the user handle, the client data (type, challenge, origin), the \
            authenticator data (RP ID hash, user presence, user verification when required, flags), the \
            signature with --public-key, and that the signature counter increased past --sign-count (a \
            counter that does not increase fails with SIGN_COUNT_REGRESSION; 0 after 0 is accepted).

            On success prints {"verified": true, "credentialId", "signCount" (the new value to store), \
            "signCountRegressed", "userVerified", "backupEligible", "backupState"}, and "userHandle" when \
            the response has one. An assertion has no time-dependent check: --at is accepted, for \
            symmetry with registration, and changes nothing.

            Example:
              passkeys verify authentication --response auth.json --challenge CHALLENGE \\
                  --origin https://example.com --rp-id example.com \\
                  --public-key pQECAyYgASFYI… --sign-count 41
            """
    )

    @OptionGroup var ceremony: CeremonyOptions

    @Option(
        name: .customLong("public-key"),
        help: ArgumentHelp(
            "The credential public key stored at registration: COSE, base64url (the \"publicKey\" of `passkeys verify registration`).",
            valueName: "b64url-cose"
        ),
        transform: OptionValues.coseKey
    )
    var publicKey: COSEKey

    @Option(
        name: .customLong("sign-count"),
        help: ArgumentHelp("The signature counter stored for the credential.", valueName: "n")
    )
    var signCount: UInt32

    @Option(
        name: .customLong("credential-id"),
        help: ArgumentHelp(
            "The id of the credential the relying party looked up, as base64url; the response must be for it (default: the response's rawId).",
            valueName: "b64url"
        ),
        transform: OptionValues.base64URL
    )
    var credentialID: [UInt8]?

    @Option(
        name: .customLong("user-handle"),
        help: ArgumentHelp(
            "The user handle of the user the relying party expects, as base64url; a userHandle in the response must match it (default: only the credential is checked).",
            valueName: "b64url"
        ),
        transform: OptionValues.base64URL
    )
    var userHandle: [UInt8]?

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        await VerificationOutput.result { () async throws(CommandLineError) -> OutputJSON in
            let response = try Self.decode(try InputFile.read(ceremony.response, in: environment))
            let verification = AuthenticationCeremony(
                challenge: ceremony.challenge,
                relyingPartyID: ceremony.relyingPartyID,
                origins: ceremony.originPolicy,
                user: userHandle.map { .identified(userHandle: $0) } ?? .credentialOnly,
                userVerification: ceremony.userVerification
            )
            let record = CredentialRecord(
                id: credentialID ?? response.rawId.bytes,
                publicKey: publicKey,
                signCount: signCount
            )
            let result = try await CommandLineError.reporting { () throws(WebAuthnError) in
                try verification.verify(response, credential: record)
            }
            return VerificationOutput.authentication(result)
        }
    }

    /// Decodes the response JSON; when it is a registration response, says so.
    static func decode(_ bytes: [UInt8]) throws(CommandLineError) -> AuthenticationResponseJSON {
        do throws(WebAuthnError) {
            return try AuthenticationResponseJSON(jsonBytes: bytes)
        } catch {
            if error.code == .malformedJSON, (try? RegistrationResponseJSON(jsonBytes: bytes)) != nil {
                throw CommandLineError(
                    error.code,
                    error.reason
                        + " This is a registration response (it has an attestationObject): verify it with `passkeys verify registration`."
                )
            }
            throw CommandLineError(error)
        }
    }
}
