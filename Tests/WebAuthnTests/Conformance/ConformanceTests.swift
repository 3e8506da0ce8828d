import CorpusTestSupport
import Testing

@testable import WebAuthn

/// The real-device corpus (`shared/conformance`): every case not marked `skip` gives its expected outcome, and
/// every expected failure fails for its pinned reason. Skipped when the corpus is absent (it lives outside this
/// repository; set PASSKEYS_CONFORMANCE_DIR) unless it is required (PASSKEYS_REQUIRE_CONFORMANCE=1).
@Suite(.enabled(if: ConformanceCorpus.shouldRun, Comment(rawValue: ConformanceCorpus.skipReason)))
struct ConformanceTests {
    @Test("every case of the corpus is read: as many as its README states")
    func allCasesRead() throws {
        let files = ConformanceCorpus.caseFiles()
        #expect(files.count == (try ConformanceCorpus.statedCaseCount()), "cases read from the corpus")
        #expect(!files.isEmpty)
    }

    @Test("the cases marked skip are exactly the pinned ones, and the README's skip list")
    func skipsArePinned() throws {
        let skipped = try ConformanceCorpus.caseFiles().filter { try ConformanceCase.load($0).skip != nil }
        #expect(Set(skipped) == ConformanceDeviations.skipped)
        #expect(Set(skipped.map { String($0.prefix(3)) }) == (try ConformanceCorpus.statedSkips()))
    }

    @Test("every case expected to fail has its rejection code pinned, and only those")
    func everyRejectionPinned() throws {
        let failing = try ConformanceCorpus.caseFiles().filter { file in
            let testCase = try ConformanceCase.load(file)
            return testCase.skip == nil && !testCase.outcome.ok
        }
        #expect(Set(failing) == Set(ConformanceDeviations.rejectionCodes.keys))
    }

    @Test("corpus case", arguments: ConformanceCorpus.caseFiles())
    func corpusCase(_ file: String) async throws {
        var testCase = try ConformanceCase.load(file)
        // A case the corpus itself marks unusable is not run; its `skip` field says why, and we print it.
        if let reason = testCase.skip {
            // Pinned: a case the corpus newly marks unusable fails here until it is looked at.
            #expect(ConformanceDeviations.skipped.contains(file), "\(file) is newly skipped: \(reason)")
            print("skipped \(file): \(reason)")
            return
        }
        if ConformanceDeviations.placeholderCredentialID[file] != nil {
            let asRecorded = try await ConformanceRunner.run(testCase)
            #expect(!asRecorded.ok, "\(file): a rawId that is not the attested credential id must be rejected")
            #expect([.credentialIDMismatch, .malformedJSON].contains(asRecorded.error?.code))
            testCase.response = try ConformanceDeviations.repairCredentialID(testCase.response)
        }
        let result = try await ConformanceRunner.run(
            testCase,
            adjustPolicy: ConformanceDeviations.policyAdjustments[file] ?? { _ in }
        )
        #expect(
            result.ok == testCase.outcome.ok,
            "\(file): expected ok=\(testCase.outcome.ok), got \(result.error.map { "\($0)" } ?? "success")"
        )
        if !testCase.outcome.ok {
            let code = try #require(
                ConformanceDeviations.rejectionCodes[file],
                "\(file) is expected to fail: pin the reason in ConformanceDeviations.rejectionCodes"
            )
            #expect(
                result.error?.code == code,
                "\(file): rejected for the wrong reason: \(result.error.map { "\($0)" } ?? "")"
            )
        }
        if result.ok, testCase.outcome.ok {
            if let fmt = testCase.outcome.fmt, testCase.ceremony == "registration" { #expect(result.fmt == fmt) }
            if let aaguid = testCase.outcome.aaguid, testCase.ceremony == "registration" {
                #expect(result.aaguid == aaguid)
            }
            if let credentialID = testCase.outcome.credentialId { #expect(result.credentialID == credentialID) }
            if let signCount = testCase.outcome.signCount { #expect(result.signCount == signCount) }
        }
    }
}
