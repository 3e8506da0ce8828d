import CorpusTestSupport
import Foundation
import PasskeysCommandLine
import Testing
import WebAuthn

/// `passkeys verify authentication`, in-process, with real responses from the conformance corpus.
// Skipped when the conformance corpus (../shared/conformance or $PASSKEYS_CONFORMANCE_DIR) is absent, unless
// PASSKEYS_REQUIRE_CONFORMANCE=1.
@Suite(
    "verify authentication (conformance corpus)",
    .enabled(if: ConformanceCorpus.shouldRun, Comment(rawValue: ConformanceCorpus.skipReason))
)
struct VerifyAuthenticationTests {
    /// Case 021: an ES256 assertion; the stored key is `expected.credentialPublicKey`, the stored counter 77.
    func es256Case() throws -> CorpusCase { try Corpus.load("021") }

    /// `--public-key` and `--sign-count` as the case expects them.
    func credentialArguments(_ testCase: CorpusCase) -> [String] {
        [
            "--public-key", testCase.expected.credentialPublicKey ?? "", "--sign-count",
            String(testCase.expected.signCount ?? 0),
        ]
    }

    func verify(_ testCase: CorpusCase, _ arguments: [String]) async throws -> CommandResult {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("response.json", testCase.responseJSON)
        return await passkeys(
            ["verify", "authentication", "--response", file] + testCase.ceremonyArguments + arguments
        )
    }

    @Test func verifiesAnAssertion() async throws {
        let testCase = try es256Case()
        let result = try await verify(testCase, credentialArguments(testCase))
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty)
        let output = try outputObject(result)
        #expect(output["verified"] == .bool(true))
        #expect(output["credentialId"] == .string(testCase.outcome.credentialId ?? ""))
        #expect(output["signCount"] == .number(78))
        #expect(output["signCountRegressed"] == .bool(false))
        #expect(output["userVerified"] == .bool(false))
        #expect(output["backupEligible"] == .bool(false))
        #expect(output["backupState"] == .bool(false))
        #expect(output["userHandle"] == nil)
        #expect(output["fmt"] == nil)
    }

    @Test func readsTheResponseFromStandardInput() async throws {
        let testCase = try es256Case()
        let result = await passkeys(
            ["verify", "authentication", "--response", "-"] + testCase.ceremonyArguments
                + credentialArguments(testCase),
            stdin: Array(testCase.responseJSON)
        )
        #expect(result.exitCode == 0)
        #expect(try outputObject(result)["verified"] == .bool(true))
    }

    @Test func reportsASignCountThatDidNotIncrease() async throws {
        let testCase = try es256Case()
        let result = try await verify(
            testCase,
            ["--public-key", testCase.expected.credentialPublicKey ?? "", "--sign-count", "78"]
        )
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "SIGN_COUNT_REGRESSION")
    }

    @Test func reportsASignatureThatDoesNotVerifyWithTheKey() async throws {
        let testCase = try es256Case()
        // Another credential's ES256 key (case 020).
        let otherKey = try Corpus.load("020").expected.credentialPublicKey ?? ""
        #expect(otherKey != testCase.expected.credentialPublicKey)
        let result = try await verify(testCase, ["--public-key", otherKey, "--sign-count", "0"])
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "SIGNATURE_INVALID")
    }

    @Test func checksTheCredentialIDTheRelyingPartyLookedUp() async throws {
        let testCase = try es256Case()
        let same = try await verify(
            testCase,
            credentialArguments(testCase) + ["--credential-id", testCase.outcome.credentialId ?? ""]
        )
        #expect(same.exitCode == 0)
        let other = try await verify(testCase, credentialArguments(testCase) + ["--credential-id", "AAAAAAAA"])
        #expect(other.exitCode == 1)
        #expect(errorCode(other) == "CREDENTIAL_ID_MISMATCH")
    }

    @Test func requiresUserVerificationWhenAsked() async throws {
        let testCase = try es256Case()
        let result = try await verify(testCase, credentialArguments(testCase) + ["--require-user-verification"])
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "USER_VERIFICATION_REQUIRED")
    }

    @Test func checksTheUserHandle() async throws {
        // Case 023: an RS256 assertion with a userHandle, and UV.
        let testCase = try Corpus.load("023")
        let userHandle = testCase.responseMember("userHandle") ?? ""
        let same = try await verify(
            testCase,
            credentialArguments(testCase) + ["--user-handle", userHandle, "--require-user-verification"]
        )
        #expect(same.exitCode == 0)
        let output = try outputObject(same)
        #expect(output["userHandle"] == .string(userHandle))
        #expect(output["userVerified"] == .bool(true))
        let other = try await verify(testCase, credentialArguments(testCase) + ["--user-handle", "b3RoZXI"])
        #expect(other.exitCode == 1)
        #expect(errorCode(other) == "USER_HANDLE_MISMATCH")
    }

    @Test func reportsTheUserHandleWithoutCheckingIt() async throws {
        let testCase = try Corpus.load("023")
        let result = try await verify(testCase, credentialArguments(testCase))
        #expect(result.exitCode == 0)
        #expect(try outputObject(result)["userHandle"] == .string(testCase.responseMember("userHandle") ?? ""))
    }

    @Test func reportsAWrongChallengeAndOrigin() async throws {
        let testCase = try es256Case()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("response.json", testCase.responseJSON)
        let challenge = await passkeys(
            [
                "verify", "authentication", "--response", file, "--challenge", "AAAA", "--origin",
                "http://localhost:5000", "--rp-id", "localhost",
            ]
                + credentialArguments(testCase)
        )
        #expect(errorCode(challenge) == "CHALLENGE_MISMATCH")
        let origin = await passkeys(
            [
                "verify", "authentication", "--response", file, "--challenge", testCase.expected.challenge, "--origin",
                "https://localhost", "--rp-id", "localhost",
            ]
                + credentialArguments(testCase)
        )
        #expect(errorCode(origin) == "ORIGIN_NOT_ALLOWED")
    }

    @Test func reportsARegistrationResponseAsMalformed() async throws {
        let registration = try Corpus.load("004")
        let es256 = try es256Case()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("registration.json", registration.responseJSON)
        let result = await passkeys(
            ["verify", "authentication", "--response", file] + registration.ceremonyArguments
                + credentialArguments(es256)
        )
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "MALFORMED_JSON")
        #expect(result.standardOutput.contains("verify registration"))
    }
}
