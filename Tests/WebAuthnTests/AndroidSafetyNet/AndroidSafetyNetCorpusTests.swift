import CorpusTestSupport
import Foundation
import Testing
import X509

@testable import WebAuthn

/// android-safetynet attestation (§8.5) against real responses from the conformance corpus.
/// Cases 024 and 087 are marked skip in the corpus and are not run.
// Skipped when the corpus is absent (unless PASSKEYS_REQUIRE_CONFORMANCE=1): see ConformanceCorpus.
@Suite(
    .enabled(
        if: ConformanceCorpus.shouldRun,
        Comment(rawValue: ConformanceCorpus.skipReason)
    )
)
struct AndroidSafetyNetCorpusTests {
    /// The policy a case asks for: CTS enforcement per `safetyNetEnforceCTSCheck` (null = the default, on).
    static func policy(
        for testCase: AndroidConformanceCorpus.Case,
        maximumAge: TimeInterval? = nil
    ) -> AttestationPolicy {
        var policy = AttestationPolicy()
        if let enforce = testCase.safetyNetEnforceCTSCheck { policy.safetyNetRequiresCTSProfileMatch = enforce }
        if let maximumAge { policy.safetyNetMaximumAge = maximumAge }
        return policy
    }

    /// 047: a real response with ctsProfileMatch false fails by default (verified at its verifyAt,
    /// which is the JWS timestamp).
    @Test func enforcesCTSProfileMatchByDefault() throws {
        let testCase = try AndroidConformanceCorpus.load("047")
        #expect(!testCase.expectedOK && testCase.skip == nil)
        let statement = try testCase.statement(policy: Self.policy(for: testCase))
        let error = AndroidTestFixtures.error { _ = try AndroidSafetyNetAttestation.verify(statement) }
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("ctsProfileMatch") == true)
    }

    /// 048: the same response passes when the relying party turns CTS enforcement off.
    @Test func acceptsWithoutCTSEnforcement() throws {
        let testCase = try AndroidConformanceCorpus.load("048")
        #expect(testCase.expectedOK && testCase.safetyNetEnforceCTSCheck == false)
        let statement = try testCase.statement(policy: Self.policy(for: testCase))
        let result = try AndroidSafetyNetAttestation.verify(statement)
        #expect(result.type == .basic)
        #expect(result.trustPath.count == 3)
        #expect(result.trustPath[0].subject.description.contains("attest.android.com"))
    }

    /// 080 at its verifyAt (2019-10-01T00:00:42Z). Its JWS timestampMs is 2019-08-10T08:04:22Z, 52 days
    /// earlier: the source test disabled the freshness check, so the policy's maximum age is widened here.
    @Test func acceptsAtVerifyAtWithWidenedMaximumAge() throws {
        let testCase = try AndroidConformanceCorpus.load("080")
        #expect(testCase.expectedOK && testCase.verifyAt != nil)
        let statement = try testCase.statement(policy: Self.policy(for: testCase, maximumAge: 60 * 86_400))
        let result = try AndroidSafetyNetAttestation.verify(statement)
        #expect(result.type == .basic)
        #expect(result.trustPath.count == 2)
    }

    /// 080 under the default policy (60 s maximum age) is stale at its verifyAt.
    @Test func rejectsStaleRealResponse() throws {
        let testCase = try AndroidConformanceCorpus.load("080")
        let statement = try testCase.statement(policy: Self.policy(for: testCase))
        let error = AndroidTestFixtures.error { _ = try AndroidSafetyNetAttestation.verify(statement) }
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("old") == true)
    }

    /// One changed character in the real payload breaks the JWS signature.
    @Test func rejectsTamperedRealPayload() throws {
        let testCase = try AndroidConformanceCorpus.load("048")
        let statement = try testCase.statement(policy: Self.policy(for: testCase))
        var response = try #require(statement.fields[text: "response"]?.bytesValue)
        let firstDot = try #require(response.firstIndex(of: UInt8(ascii: ".")))
        response[firstDot + 10] = response[firstDot + 10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let tampered = AttestationStatement(
            format: statement.format,
            fields: AndroidKeyCorpusTests.replacing("response", with: .bytes(response), in: statement.fields),
            authenticatorData: statement.authenticatorData,
            credential: statement.credential,
            clientDataHash: statement.clientDataHash,
            policy: statement.policy,
            time: statement.time
        )
        let error = AndroidTestFixtures.error { _ = try AndroidSafetyNetAttestation.verify(tampered) }
        #expect(error?.code == .attestationInvalid)
    }

    /// Another clientDataHash changes the expected nonce.
    @Test func rejectsOtherClientDataHash() throws {
        let testCase = try AndroidConformanceCorpus.load("048")
        let statement = try testCase.statement(policy: Self.policy(for: testCase))
        let other = AttestationStatement(
            format: statement.format,
            fields: statement.fields,
            authenticatorData: statement.authenticatorData,
            credential: statement.credential,
            clientDataHash: [UInt8](repeating: 9, count: 32),
            policy: statement.policy,
            time: statement.time
        )
        let error = AndroidTestFixtures.error { _ = try AndroidSafetyNetAttestation.verify(other) }
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("nonce") == true)
    }

    /// The payloads of the real responses read as expected.
    @Test(arguments: [("047", false), ("080", true)])
    func readsPayload(_ number: String, cts: Bool) throws {
        let statement = try AndroidConformanceCorpus.load(number).statement()
        let jws = try AndroidSafetyNetAttestation.responseJWS(
            try #require(statement.fields[text: "response"]?.bytesValue)
        )
        #expect(jws.header.algorithm == "RS256")
        let payload = try SafetyNetResponse(jsonBytes: jws.payload)
        #expect(payload.ctsProfileMatch == cts)
        #expect(payload.basicIntegrity)
        #expect(payload.apkPackageName == "com.google.android.gms")
    }
}
