import CorpusTestSupport
import Foundation
import Testing
import X509

@testable import WebAuthn

/// android-key attestation (§8.4) against real-device responses from the conformance corpus.
// Skipped when the corpus is absent (unless PASSKEYS_REQUIRE_CONFORMANCE=1): see ConformanceCorpus.
@Suite(
    .enabled(
        if: ConformanceCorpus.shouldRun,
        Comment(rawValue: ConformanceCorpus.skipReason)
    )
)
struct AndroidKeyCorpusTests {
    /// Expected-ok android-key registrations: FIDO conformance tool (036, 065, 081), Pixel 8a (006, 066),
    /// Samsung Galaxy S9+ (067).
    @Test(arguments: ["006", "036", "065", "066", "067", "081"])
    func verifiesRealDevice(_ number: String) throws {
        let testCase = try AndroidConformanceCorpus.load(number)
        #expect(testCase.expectedOK)
        let statement = try testCase.statement()
        #expect(statement.format == .androidKey)
        let result = try AndroidKeyAttestation.verify(statement)
        #expect(result.type == .basic)
        #expect(result.trustPath.count == statement.fields[text: "x5c"]?.arrayValue?.count)
    }

    /// The key description is read in full: versions, security levels, challenge, lists.
    @Test(arguments: [
        ("006", 300, AndroidKeyDescription.SecurityLevel.trustedEnvironment),
        ("036", 2, .software),
        ("067", 3, .trustedEnvironment),
        ("103", 300, .software),
    ])
    func readsKeyDescription(_ number: String, version: Int, level: AndroidKeyDescription.SecurityLevel) throws {
        let statement = try AndroidConformanceCorpus.load(number).statement()
        let leaf = try #require(try statement.certificateChain()?.first)
        let description = try AndroidKeyAttestation.keyDescription(of: leaf, statement: statement)
        #expect(description.attestationVersion == version)
        #expect(description.attestationSecurityLevel == level)
        #expect(description.attestationChallenge == statement.clientDataHash)
        #expect(description.uniqueID.isEmpty)
        if number != "103" {
            #expect(description.teeEnforced.origin == AndroidAuthorizationList.originGenerated)
            #expect(description.teeEnforced.purpose == [AndroidAuthorizationList.purposeSign])
            #expect(description.softwareEnforced.tags.contains(709))  // attestationApplicationId, skipped
        }
    }

    /// Case 103, the WebAuthn L3 §16 android-key test vector, is expected to fail. Its key description has
    /// two empty authorization lists, so teeEnforced has no origin (nor purpose): §8.4 step 5 rejects it.
    /// Its chain is fine: it verifies to the test-vector CA.
    @Test func specVectorFailsOnMissingTEEOrigin() async throws {
        let testCase = try AndroidConformanceCorpus.load("103")
        #expect(!testCase.expectedOK)
        let statement = try testCase.statement()
        let error = AndroidTestFixtures.error { _ = try AndroidKeyAttestation.verify(statement) }
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("teeEnforced origin") == true)

        let leaf = try #require(try statement.certificateChain()?.first)
        let description = try AndroidKeyAttestation.keyDescription(of: leaf, statement: statement)
        #expect(description.softwareEnforced.tags.isEmpty && description.teeEnforced.tags.isEmpty)
        let anchor = try AndroidConformanceCorpus.root("roots/w3c-webauthn-test-vectors-ca.pem")
        let trusted = try await TrustEvaluation.evaluate([leaf], format: .androidKey, anchors: [anchor], time: Date())
        #expect(trusted == anchor)
    }

    /// Flipping one bit of the real signature fails §8.4 step 2.
    @Test func rejectsMutatedSignature() throws {
        let statement = try AndroidConformanceCorpus.load("066").statement()
        var sig = try #require(statement.fields[text: "sig"]?.bytesValue)
        sig[sig.count / 2] ^= 0x01
        let mutated = AttestationStatement(
            format: statement.format,
            fields: Self.replacing("sig", with: .bytes(sig), in: statement.fields),
            authenticatorData: statement.authenticatorData,
            credential: statement.credential,
            clientDataHash: statement.clientDataHash,
            policy: statement.policy,
            time: statement.time
        )
        let error = AndroidTestFixtures.error { _ = try AndroidKeyAttestation.verify(mutated) }
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("signature") == true)
    }

    /// Another client data hash breaks the signature first (it covers clientDataHash).
    @Test func rejectsOtherClientDataHash() throws {
        let statement = try AndroidConformanceCorpus.load("067").statement()
        let other = AttestationStatement(
            format: statement.format,
            fields: statement.fields,
            authenticatorData: statement.authenticatorData,
            credential: statement.credential,
            clientDataHash: [UInt8](repeating: 7, count: 32),
            policy: statement.policy,
            time: statement.time
        )
        let error = AndroidTestFixtures.error { _ = try AndroidKeyAttestation.verify(other) }
        #expect(error?.code == .attestationInvalid)
    }

    static func replacing(_ key: String, with value: CBORValue, in map: CBORValue) -> CBORValue {
        .map((map.mapEntries ?? []).map { $0.key == .text(key) ? CBORMapEntry($0.key, value) : $0 })
    }
}
