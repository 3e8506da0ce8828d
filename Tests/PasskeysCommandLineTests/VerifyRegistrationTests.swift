import CorpusTestSupport
import Foundation
import PasskeysCommandLine
import Testing
import WebAuthn

/// `passkeys verify registration`, in-process, with real responses from the conformance corpus.
// Skipped when the conformance corpus (../shared/conformance or $PASSKEYS_CONFORMANCE_DIR) is absent, unless
// PASSKEYS_REQUIRE_CONFORMANCE=1.
@Suite(
    "verify registration (conformance corpus)",
    .enabled(if: ConformanceCorpus.shouldRun, Comment(rawValue: ConformanceCorpus.skipReason))
)
struct VerifyRegistrationTests {
    /// Case 004: a `none` attestation from py_webauthn's test suite.
    func noneCase() throws -> CorpusCase { try Corpus.load("004") }

    func verify(_ testCase: CorpusCase, _ extra: [String] = [], ceremony: [String]? = nil) async throws -> CommandResult
    {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("response.json", testCase.responseJSON)
        return await passkeys(
            ["verify", "registration", "--response", file] + (ceremony ?? testCase.ceremonyArguments) + extra
        )
    }

    @Test func verifiesNoneAttestation() async throws {
        let testCase = try noneCase()
        let result = try await verify(testCase)
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty)
        let output = try outputObject(result)
        #expect(output["verified"] == .bool(true))
        #expect(output["fmt"] == .string("none"))
        #expect(output["attestationType"] == .string("none"))
        #expect(output["trusted"] == .bool(false))
        #expect(output["aaguid"] == .string(testCase.outcome.aaguid ?? ""))
        #expect(output["credentialId"] == .string(testCase.outcome.credentialId ?? ""))
        #expect(output["algorithm"] == .string("ES256"))
        #expect(output["signCount"] == .number(Double(testCase.outcome.signCount ?? 0)))
        #expect(output["userVerified"] == .bool(true))
        #expect(output["backupEligible"] == .bool(false))
        #expect(output["backupState"] == .bool(false))
        // The public key is COSE in base64url: what `verify authentication --public-key` takes.
        guard case .string(let publicKey)? = output["publicKey"] else {
            Issue.record("no publicKey")
            return
        }
        #expect(try COSEKey(cborRepresentation: Base64URL.decode(publicKey)).algorithm == .es256)
        // Keys come in the documented order.
        let keys = [
            "verified", "fmt", "attestationType", "trusted", "aaguid", "credentialId", "publicKey", "algorithm",
            "signCount", "userVerified", "backupEligible", "backupState",
        ]
        let positions = keys.map { result.standardOutput.range(of: "\"\($0)\"")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    @Test func readsTheResponseFromStandardInput() async throws {
        let testCase = try noneCase()
        let result = await passkeys(
            ["verify", "registration", "--response", "-"] + testCase.ceremonyArguments,
            stdin: Array(testCase.responseJSON)
        )
        #expect(result.exitCode == 0)
        #expect(try outputObject(result)["verified"] == .bool(true))
    }

    @Test func acceptsAnyOfSeveralOrigins() async throws {
        let testCase = try noneCase()
        let ceremony = [
            "--challenge", testCase.expected.challenge, "--origin", "https://other.example",
            "--origin", testCase.expected.origin.values[0], "--rp-id", "localhost",
        ]
        let result = try await verify(testCase, ceremony: ceremony)
        #expect(result.exitCode == 0)
    }

    @Test func algorithmsTheRelyingPartyOffered() async throws {
        let testCase = try noneCase()  // an ES256 credential
        for offered in [["-7"], ["ES256", "-257"], ["-8", "-7"]] {
            let result = try await verify(testCase, offered.flatMap { ["--algorithm", $0] })
            #expect(result.exitCode == 0, "\(offered): \(result.standardOutput)")
        }
        for offered in [["-257"], ["-8", "RS1"]] {
            let result = try await verify(testCase, offered.flatMap { ["--algorithm", $0] })
            #expect(result.exitCode == 1, "\(offered)")
            #expect(errorCode(result) == "ALGORITHM_NOT_ALLOWED")
        }
        let unknown = try await verify(testCase, ["--algorithm", "ES999"])
        #expect(unknown.exitCode == 2)
        #expect(unknown.standardError.contains("not a COSE algorithm"))
    }

    @Test func reportsAWrongChallenge() async throws {
        let testCase = try noneCase()
        let ceremony = ["--challenge", "AAAA", "--origin", testCase.expected.origin.values[0], "--rp-id", "localhost"]
        let result = try await verify(testCase, ceremony: ceremony)
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "CHALLENGE_MISMATCH")
        let output = try outputObject(result)
        #expect(output["verified"] == .bool(false))
        guard case .object(let error)? = output["error"], case .string(let message)? = error["message"] else {
            Issue.record("no error message")
            return
        }
        #expect(!message.isEmpty)
    }

    @Test func reportsAnOriginNotAllowed() async throws {
        let testCase = try noneCase()
        let ceremony = [
            "--challenge", testCase.expected.challenge, "--origin", "https://example.com", "--rp-id", "localhost",
        ]
        let result = try await verify(testCase, ceremony: ceremony)
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "ORIGIN_NOT_ALLOWED")
    }

    @Test func reportsAnotherRelyingPartyID() async throws {
        let testCase = try noneCase()
        let ceremony = [
            "--challenge", testCase.expected.challenge, "--origin", testCase.expected.origin.values[0], "--rp-id",
            "example.com",
        ]
        let result = try await verify(testCase, ceremony: ceremony)
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "RP_ID_MISMATCH")
    }

    @Test func requiresUserVerificationWhenAsked() async throws {
        // Case 092: a W3C test-vector registration without UV.
        let testCase = try Corpus.load("092")
        #expect(try await verify(testCase).exitCode == 0)
        let result = try await verify(testCase, ["--require-user-verification"])
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "USER_VERIFICATION_REQUIRED")
    }

    @Test func reportsAnAuthenticationResponseAsMalformed() async throws {
        let testCase = try Corpus.load("021")
        let result = try await verify(
            testCase,
            ceremony: ["--challenge", "AAAA", "--origin", "https://example.com", "--rp-id", "example.com"]
        )
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "MALFORMED_JSON")
        #expect(result.standardOutput.contains("verify authentication"))
    }

    // MARK: Attestation trust

    /// Case 097: a packed attestation whose chain ends at the W3C test-vector CA (roots/w3c-webauthn-test-vectors-ca.pem).
    func packedCase() throws -> (CorpusCase, anchor: String) {
        let testCase = try Corpus.load("097")
        return (testCase, try ConformanceCorpus.path(testCase.expected.trustAnchors?["packed"]?.first ?? ""))
    }

    @Test func verifiesTheChainWithoutATrustAnchorButDoesNotTrustIt() async throws {
        let (testCase, _) = try packedCase()
        let result = try await verify(testCase)
        #expect(result.exitCode == 0)
        let output = try outputObject(result)
        #expect(output["fmt"] == .string("packed"))
        #expect(output["attestationType"] == .string("basic"))
        #expect(output["trusted"] == .bool(false))
        #expect(output["aaguid"] == .string(testCase.outcome.aaguid ?? ""))
    }

    @Test func trustsAChainThatVerifiesToATrustAnchor() async throws {
        let (testCase, anchor) = try packedCase()
        let result = try await verify(testCase, ["--trust-anchor", anchor, "--at", "2026-11-21T00:00:00Z"])
        #expect(result.exitCode == 0)
        let output = try outputObject(result)
        #expect(output["trusted"] == .bool(true))
        #expect(output["attestationType"] == .string("basic"))
    }

    @Test func readsSeveralCertificatesFromOneTrustAnchorFile() async throws {
        let (testCase, anchor) = try packedCase()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bundle =
            try String(contentsOfFile: ConformanceCorpus.path("roots/apple-webauthn-root-ca.pem"), encoding: .utf8)
            + String(contentsOfFile: anchor, encoding: .utf8)
        let file = try directory.file("roots.pem", bundle)
        let result = try await verify(testCase, ["--trust-anchor", file])
        #expect(result.exitCode == 0)
        #expect(try outputObject(result)["trusted"] == .bool(true))
    }

    @Test func acceptsSeveralTrustAnchorFiles() async throws {
        let (testCase, anchor) = try packedCase()
        let other = try ConformanceCorpus.path("roots/apple-webauthn-root-ca.pem")
        let result = try await verify(testCase, ["--trust-anchor", other, "--trust-anchor", anchor])
        #expect(result.exitCode == 0)
        #expect(try outputObject(result)["trusted"] == .bool(true))
    }

    @Test func rejectsAChainThatDoesNotReachTheTrustAnchors() async throws {
        let (testCase, _) = try packedCase()
        let result = try await verify(
            testCase,
            ["--trust-anchor", try ConformanceCorpus.path("roots/apple-webauthn-root-ca.pem")]
        )
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "ATTESTATION_UNTRUSTED")
    }

    @Test func verifiesTheChainAtTheGivenTime() async throws {
        let (testCase, anchor) = try packedCase()
        // Before the test-vector CA existed (it is valid from 2024-01-01).
        let result = try await verify(testCase, ["--trust-anchor", anchor, "--at", "2020-01-01T00:00:00Z"])
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "ATTESTATION_UNTRUSTED")
    }

    @Test func appliesTrustAnchorsToEveryFormat() async throws {
        // Case 002: a packed attestation checked against a root that did not issue it.
        let testCase = try Corpus.load("002")
        let root = try ConformanceCorpus.path(testCase.expected.trustAnchors?["packed"]?.first ?? "")
        let result = try await verify(testCase, ["--trust-anchor", root])
        #expect(result.exitCode == 1)
        #expect(errorCode(result) == "ATTESTATION_UNTRUSTED")
    }
}
