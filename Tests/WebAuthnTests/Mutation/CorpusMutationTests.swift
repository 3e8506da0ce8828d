import CorpusTestSupport
import Foundation
import Testing

@testable import WebAuthn

/// Deterministic mutations of the real-device conformance corpus: bit flips, truncations and byte insertions
/// in clientDataJSON, authenticatorData, signature and attestationObject. Verification must never crash and
/// must throw only `WebAuthnError`; a mutated signed field of an authentication must always be rejected.
@Suite(.enabled(if: ConformanceCorpus.shouldRun, Comment(rawValue: ConformanceCorpus.skipReason)))
struct CorpusMutationTests {
    static let mutationsPerField = 16
    static let fields = ["clientDataJSON", "authenticatorData", "signature", "attestationObject"]
    /// The fields an assertion signature covers (directly, or through the client data hash).
    static let signedAssertionFields: Set<String> = ["clientDataJSON", "authenticatorData", "signature"]

    enum Mutation: CaseIterable { case bitFlip, truncation, insertion }

    /// Applies one mutation; the result always differs from `bytes`.
    static func mutate(_ bytes: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        let kind = bytes.isEmpty ? .insertion : Mutation.allCases.randomElement(using: &rng)!
        switch kind {
        case .bitFlip:
            bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
        case .truncation:
            bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &rng)...)
        case .insertion:
            bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...bytes.count, using: &rng))
        }
        return bytes
    }

    @Test("SplitMix64 gives the reference sequence for seed 0")
    func generatorReference() {
        var rng = SplitMix64(seed: 0)
        #expect(
            [rng.next(), rng.next(), rng.next()] == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
            ]
        )
    }

    @Test("Each mutation changes the bytes", arguments: [[] as [UInt8], [0], Array(0..<64)])
    func mutationChangesBytes(_ bytes: [UInt8]) {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<200 { #expect(Self.mutate(bytes, using: &rng) != bytes) }
    }

    @Test("Mutated corpus responses are rejected cleanly", arguments: ConformanceCorpus.caseFiles())
    func mutatedCase(_ file: String) async throws {
        var testCase = try ConformanceCase.load(file)
        // The corpus's unusable cases (pinned in ConformanceDeviations.skipped) are not mutated.
        if testCase.skip != nil {
            #expect(ConformanceDeviations.skipped.contains(file), "\(file) is newly skipped")
            return
        }
        if ConformanceDeviations.placeholderCredentialID[file] != nil {
            testCase.response = try ConformanceDeviations.repairCredentialID(testCase.response)
        }
        let baseline = try await ConformanceRunner.run(testCase)
        guard case .object(var credential) = testCase.response, case .object(let inner)? = credential["response"] else {
            Issue.record("\(file): the response has no 'response' object")
            return
        }
        var rng = SplitMix64(seed: SplitMix64.seed(file))
        for field in Self.fields {
            guard case .string(let text)? = inner[field], let original = try? Base64URL.decode(text) else { continue }
            for index in 0..<Self.mutationsPerField {
                var mutatedInner = inner
                mutatedInner[field] = .string(Base64URL.encode(Self.mutate(original, using: &rng)))
                credential["response"] = .object(mutatedInner)
                var mutated = testCase
                mutated.response = .object(credential)
                let result: ConformanceRunner.Result
                do {
                    // The runner returns WebAuthnError as a result; anything else is thrown on.
                    result = try await ConformanceRunner.run(mutated)
                } catch {
                    Issue.record(
                        "\(file) \(field) #\(index): verification threw \(type(of: error)), not WebAuthnError: \(error)"
                    )
                    continue
                }
                if testCase.ceremony == "authentication", baseline.ok, Self.signedAssertionFields.contains(field) {
                    #expect(!result.ok, "\(file) \(field) #\(index): a mutated assertion was accepted")
                }
            }
        }
    }
}
