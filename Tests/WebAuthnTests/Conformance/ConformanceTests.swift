import Testing

@testable import WebAuthn

/// The real-device corpus (`shared/conformance`): every case not marked `skip` gives its expected outcome.
/// Skipped when the corpus is absent (it lives outside this repository; set PASSKEYS_CONFORMANCE_DIR).
@Suite(.enabled(if: ConformanceCorpus.isAvailable, "the conformance corpus is absent: set PASSKEYS_CONFORMANCE_DIR"))
struct ConformanceTests {
    @Test("corpus case", arguments: ConformanceCorpus.caseFiles())
    func corpusCase(_ file: String) async throws {
        var testCase = try ConformanceCase.load(file)
        // A case the corpus itself marks unusable is not run; its `skip` field says why, and we print it.
        if let reason = testCase.skip {
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
        if !testCase.outcome.ok, let code = ConformanceDeviations.rejectionCodes[file] {
            #expect(
                result.error?.code == code,
                "\(file): rejected for the wrong reason: \(result.error.map { "\($0)" } ?? "")"
            )
        }
        guard result.ok, testCase.outcome.ok else { return }
        if let fmt = testCase.outcome.fmt, testCase.ceremony == "registration" { #expect(result.fmt == fmt) }
        if let aaguid = testCase.outcome.aaguid, testCase.ceremony == "registration" {
            #expect(result.aaguid == aaguid)
        }
        if let credentialID = testCase.outcome.credentialId { #expect(result.credentialID == credentialID) }
        if let signCount = testCase.outcome.signCount { #expect(result.signCount == signCount) }
    }
}
