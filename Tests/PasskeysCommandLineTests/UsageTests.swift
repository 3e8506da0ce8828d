import Foundation
import PasskeysCommandLine
import Testing
import WebAuthn

/// Bad usage exits 2 with a message on standard error; help exits 0. These need no corpus.
@Suite("usage and exit codes")
struct UsageTests {
    static let registration = [
        "verify", "registration", "--response", "missing.json", "--challenge", "AAAA", "--origin",
        "https://example.com", "--rp-id", "example.com",
    ]
    static let authentication = [
        "verify", "authentication", "--response", "missing.json", "--challenge", "AAAA", "--origin",
        "https://example.com", "--rp-id", "example.com",
        "--public-key",
        "pQECAyYgASFYIIeDTe-gN8A-zQclHoRnGFWN8ehM1b7yAsa8I8KIvmplIlgg4nFGT5px8o6gpPZZhO01wdy9crDSA_Ngtkx0vGpvPHI",
        "--sign-count", "0",
    ]

    /// Removes `option` and its value from `arguments`.
    static func without(_ option: String, _ arguments: [String]) -> [String] {
        guard let index = arguments.firstIndex(of: option) else { return arguments }
        var remaining = arguments
        remaining.removeSubrange(index...index + 1)
        return remaining
    }

    static func replacing(_ option: String, with value: String, _ arguments: [String]) -> [String] {
        guard let index = arguments.firstIndex(of: option) else { return arguments + [option, value] }
        var replaced = arguments
        replaced[index + 1] = value
        return replaced
    }

    func expectUsage(
        _ arguments: [String],
        mentioning text: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let result = await passkeys(arguments)
        #expect(result.exitCode == 2, "\(arguments)", sourceLocation: sourceLocation)
        #expect(result.standardOutput.isEmpty, sourceLocation: sourceLocation)
        #expect(!result.standardError.isEmpty, sourceLocation: sourceLocation)
        if let text {
            #expect(result.standardError.contains(text), "\(result.standardError)", sourceLocation: sourceLocation)
        }
    }

    @Test func validArgumentsGetPastParsing() async {
        // The response file does not exist: a verification failure (1), not bad usage (2).
        #expect(await passkeys(Self.registration).exitCode == 1)
        #expect(await passkeys(Self.authentication).exitCode == 1)
    }

    @Test(arguments: ["--response", "--challenge", "--origin", "--rp-id"])
    func missingRequiredRegistrationOption(_ option: String) async {
        await expectUsage(Self.without(option, Self.registration), mentioning: option)
    }

    @Test(arguments: ["--response", "--challenge", "--origin", "--rp-id", "--public-key", "--sign-count"])
    func missingRequiredAuthenticationOption(_ option: String) async {
        await expectUsage(Self.without(option, Self.authentication), mentioning: option)
    }

    @Test(arguments: ["a+b/", "AAAA=", "A", "not base64url", ""])
    func invalidChallenge(_ challenge: String) async {
        await expectUsage(Self.replacing("--challenge", with: challenge, Self.registration), mentioning: "--challenge")
        await expectUsage(
            Self.replacing("--challenge", with: challenge, Self.authentication),
            mentioning: "--challenge"
        )
    }

    @Test(arguments: ["yesterday", "2026-13-01T00:00:00Z", "1700000000", "31/01/2026"])
    func unparsableTime(_ time: String) async {
        await expectUsage(Self.registration + ["--at", time], mentioning: "--at")
        await expectUsage(Self.authentication + ["--at", time], mentioning: "--at")
    }

    @Test(arguments: ["2026-01-31T12:00:00Z", "2026-01-31T12:00:00.250Z", "2026-01-31T13:00:00+01:00", "2026-01-31"])
    func acceptedTime(_ time: String) async {
        #expect(await passkeys(Self.registration + ["--at", time]).exitCode == 1)
    }

    @Test func invalidPublicKey() async {
        await expectUsage(
            Self.replacing("--public-key", with: "not+base64", Self.authentication),
            mentioning: "--public-key"
        )
        // Base64url, but not a COSE key.
        await expectUsage(
            Self.replacing("--public-key", with: "oA", Self.authentication),
            mentioning: "INVALID_COSE_KEY"
        )
    }

    @Test(arguments: ["-1", "abc", "4294967296", "1.5"])
    func invalidSignCount(_ count: String) async {
        await expectUsage(Self.replacing("--sign-count", with: count, Self.authentication), mentioning: "--sign-count")
    }

    @Test func invalidCredentialIDAndUserHandle() async {
        await expectUsage(Self.authentication + ["--credential-id", "a/b"], mentioning: "--credential-id")
        await expectUsage(Self.authentication + ["--user-handle", "a/b"], mentioning: "--user-handle")
    }

    /// One base64url value in 64 starts with `-`; `-h…` must not be read as the help flag, nor `-x…` as options.
    @Test(arguments: ["--challenge", "--credential-id", "--user-handle"])
    func base64URLValuesStartingWithADash(_ option: String) async {
        let result = await passkeys(Self.replacing(option, with: "-hAAAA", Self.authentication))
        #expect(result.exitCode == CommandResult.failure, "\(result.standardOutput)\(result.standardError)")
        #expect(!result.standardOutput.contains("USAGE:"))
        #expect(result.standardOutput.contains("missing.json"))
    }

    @Test func deletingAKeyWhoseIDStartsWithADash() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.url.appendingPathComponent("keys.json").path
        for arguments in [
            ["keys", "delete", "-hAAAA", "--key-store", store], ["keys", "delete", "--key-store", store, "-hAAAA"],
        ] {
            let result = await passkeys(arguments)
            #expect(result.exitCode == CommandResult.failure, "\(arguments): \(result.standardOutput)")
            #expect(result.standardError.contains("PASSKEY_NOT_FOUND"), "\(arguments)")
        }
    }

    @Test func unusableTrustAnchor() async throws {
        await expectUsage(Self.registration + ["--trust-anchor", "no-such-roots.pem"], mentioning: "no such file")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        await expectUsage(
            Self.registration + ["--trust-anchor", try directory.file("text.pem", "not a certificate")],
            mentioning: "--trust-anchor"
        )
        let broken = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"
        await expectUsage(
            Self.registration + ["--trust-anchor", try directory.file("broken.pem", broken)],
            mentioning: "certificate 1 of 1"
        )
        await expectUsage(Self.registration + ["--trust-anchor", directory.url.path], mentioning: "--trust-anchor")
    }

    @Test func unknownOptionsAndCommands() async {
        await expectUsage(Self.registration + ["--frobnicate"], mentioning: "--frobnicate")
        await expectUsage(["verify", "attestation"])
        await expectUsage(["frobnicate"])
        // Authentication-only options are not registration options.
        await expectUsage(Self.registration + ["--sign-count", "1"])
    }

    @Test func missingSubcommandOrFile() async {
        await expectUsage([], mentioning: "Missing subcommand")
        await expectUsage(["verify"], mentioning: "Missing subcommand")
        await expectUsage(["inspect"])
    }

    @Test(arguments: [
        ["--help"], ["-h"], ["help"], ["verify", "--help"], ["verify", "registration", "--help"],
        ["verify", "authentication", "--help"], ["inspect", "--help"], ["help", "inspect"],
    ])
    func helpExitsZero(_ arguments: [String]) async {
        let result = await passkeys(arguments)
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("USAGE"))
        #expect(result.standardError.isEmpty)
    }

    @Test func helpDescribesTheOptions() async {
        let registration = await passkeys(["verify", "registration", "--help"]).standardOutput
        for option in [
            "--response", "--challenge", "--origin", "--rp-id", "--require-user-verification", "--trust-anchor", "--at",
        ] {
            #expect(registration.contains(option), "\(option)")
        }
        let authentication = await passkeys(["verify", "authentication", "--help"]).standardOutput
        for option in [
            "--public-key", "--sign-count", "--credential-id", "--user-handle", "--require-user-verification", "--at",
        ] {
            #expect(authentication.contains(option), "\(option)")
        }
    }
}

/// Inputs that cannot be read or decoded: verification failures (exit 1) with a stable code. No corpus needed.
@Suite("unreadable and undecodable responses")
struct InputFailureTests {
    @Test func unreadableResponseFile() async throws {
        for arguments in [UsageTests.registration, UsageTests.authentication] {
            let result = await passkeys(arguments)
            #expect(result.exitCode == 1)
            #expect(result.standardError.isEmpty)
            #expect(errorCode(result) == "FILE_UNREADABLE")
            #expect(try outputObject(result)["verified"] == .bool(false))
            #expect(result.standardOutput.contains("missing.json"))
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = await passkeys(
            UsageTests.replacing("--response", with: directory.url.path, UsageTests.registration)
        )
        #expect(errorCode(result) == "FILE_UNREADABLE")
    }

    @Test(arguments: ["", "not json", "{}", "[]", "{\"id\": 1}"])
    func undecodableResponse(_ text: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("response.json", text)
        for arguments in [UsageTests.registration, UsageTests.authentication] {
            let result = await passkeys(UsageTests.replacing("--response", with: file, arguments))
            #expect(result.exitCode == 1)
            #expect(errorCode(result) == "MALFORMED_JSON")
        }
        let stdin = await passkeys(
            UsageTests.replacing("--response", with: "-", UsageTests.registration),
            stdin: Array(text.utf8)
        )
        #expect(errorCode(stdin) == "MALFORMED_JSON")
    }

    @Test func unreadableStandardInput() async {
        struct Closed: Error {}
        let result = await PasskeysTool.run(
            UsageTests.replacing("--response", with: "-", UsageTests.registration),
            environment: CommandEnvironment(readStandardInput: { throw Closed() })
        )
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "FILE_UNREADABLE")
    }

    @Test func oversizedResponse() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("large.json", String(repeating: " ", count: 2 * 1024 * 1024))
        let result = await passkeys(UsageTests.replacing("--response", with: file, UsageTests.registration))
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "INPUT_TOO_LARGE")
    }

    /// A synthetic response whose client data has another challenge: verification stops there.
    @Test func failedVerificationWithoutTheCorpus() async throws {
        let clientData = #"{"type":"webauthn.create","challenge":"AAAA","origin":"https://example.com"}"#
        let credential = """
            {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "clientExtensionResults": {},
             "response": {"clientDataJSON": "\(Base64URL.encode(Array(clientData.utf8)))", "attestationObject": "oA"}}
            """
        let result = await passkeys(
            UsageTests.replacing(
                "--challenge",
                with: "BBBB",
                UsageTests.replacing("--response", with: "-", UsageTests.registration)
            ),
            stdin: Array(credential.utf8)
        )
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "CHALLENGE_MISMATCH")
        #expect(result.standardOutput.hasSuffix("}\n"))
    }
}
