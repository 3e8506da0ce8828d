import CorpusTestSupport
import Foundation
import Testing
import X509

@testable import WebAuthn

/// The Android corpus cases through the whole attestation step (§7.1 steps 21–23): the format verifier,
/// then trust evaluation against the roots the source test used, at the case's verifyAt.
// Skipped when the corpus is absent (unless PASSKEYS_REQUIRE_CONFORMANCE=1): see ConformanceCorpus.
@Suite(
    .enabled(
        if: ConformanceCorpus.shouldRun,
        Comment(rawValue: ConformanceCorpus.skipReason)
    )
)
struct AndroidEndToEndTests {
    static let googleRoots = (1...4).map { "roots/google-hardware-attestation-root-\($0).pem" }

    struct Expectation: Sendable, CustomTestStringConvertible {
        let number: String
        /// Trust anchors: the case's own list when it names one, otherwise the roots its source library ships.
        let anchors: [String]?
        /// nil: the case must fail; otherwise whether the chain must verify to an anchor.
        let trusted: Bool?
        var maximumAge: TimeInterval?
        var testDescription: String { number }
    }

    static let expectations: [Expectation] = [
        Expectation(number: "006", anchors: googleRoots, trusted: true),  // py_webauthn default roots
        Expectation(number: "036", anchors: nil, trusted: false),  // roots cleared: chain checked internally only
        Expectation(number: "065", anchors: nil, trusted: false),
        Expectation(number: "066", anchors: nil, trusted: true),
        Expectation(number: "067", anchors: nil, trusted: true),
        Expectation(number: "081", anchors: [], trusted: false),  // go test: no roots
        Expectation(number: "103", anchors: nil, trusted: nil),  // fails in §8.4 step 5, not on trust
        // ctsProfileMatch false
        Expectation(number: "047", anchors: ["roots/globalsign-root-ca-r1.pem"], trusted: nil),
        Expectation(number: "048", anchors: ["roots/globalsign-root-ca-r1.pem"], trusted: true),
        // The source test disabled the timestampMs check; the JWS is 52 days older than verifyAt.
        Expectation(
            number: "080",
            anchors: ["roots/globalsign-root-ca-r2.pem"],
            trusted: true,
            maximumAge: 60 * 86_400
        ),
    ]

    @Test(arguments: expectations)
    func matchesRecordedOutcome(_ expectation: Expectation) async throws {
        let testCase = try AndroidConformanceCorpus.load(expectation.number)
        #expect(testCase.skip == nil)
        #expect(testCase.expectedOK == (expectation.trusted != nil))
        let statement = try testCase.statement()
        let anchorPaths = expectation.anchors ?? testCase.trustAnchors?[statement.format.rawValue] ?? []
        var policy = AttestationPolicy(trustAnchors: [
            statement.format: try anchorPaths.map(AndroidConformanceCorpus.root)
        ])
        if let enforce = testCase.safetyNetEnforceCTSCheck { policy.safetyNetRequiresCTSProfileMatch = enforce }
        if let maximumAge = expectation.maximumAge { policy.safetyNetMaximumAge = maximumAge }
        do {
            let verified = try await AttestationVerification.verify(
                format: statement.format,
                fields: statement.fields,
                authenticatorData: statement.authenticatorData,
                credential: statement.credential,
                clientDataHash: statement.clientDataHash,
                policy: policy,
                time: statement.time
            )
            #expect(verified.type == .basic)
            #expect(verified.trusted == expectation.trusted)
        } catch {
            #expect(expectation.trusted == nil, "unexpected failure: \(error)")
            #expect(error.code == .attestationInvalid)
        }
    }
}
