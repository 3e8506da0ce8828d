import CorpusTestSupport
import Foundation
import Testing
import X509

@testable import WebAuthn

/// The KeyDescription parser on its own: strict structure, bounds, and no crash on any input.
struct AndroidKeyDescriptionParserTests {
    typealias F = AndroidTestFixtures

    struct Malformed: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        var testDescription: String { name }
    }

    static let challenge = F.clientDataHash
    static let good = F.keyDescription(challenge: challenge)

    static let malformedDescriptions: [Malformed] = [
        Malformed(name: "empty", bytes: []),
        Malformed(name: "truncated", bytes: Array(good.dropLast(3))),
        Malformed(name: "trailing bytes", bytes: good + [0x00]),
        Malformed(name: "not a sequence", bytes: F.set([F.integer(1)])),
        Malformed(
            name: "seven fields",
            bytes: F.sequence([
                F.integer(3), F.enumerated(1), F.integer(4), F.enumerated(1), F.octetString(challenge),
                F.octetString([]),
                F.sequence([]),
            ])
        ),
        Malformed(
            name: "nine fields",
            bytes: F.sequence([
                F.integer(3), F.enumerated(1), F.integer(4), F.enumerated(1), F.octetString(challenge),
                F.octetString([]),
                F.sequence([]), F.sequence(F.generatedSigningKey), F.null,
            ])
        ),
        Malformed(
            name: "security level as INTEGER",
            bytes: F.sequence([
                F.integer(3), F.integer(1), F.integer(4), F.enumerated(1), F.octetString(challenge), F.octetString([]),
                F.sequence([]), F.sequence(F.generatedSigningKey),
            ])
        ),
        Malformed(
            name: "challenge as INTEGER",
            bytes: F.sequence([
                F.integer(3), F.enumerated(1), F.integer(4), F.enumerated(1), F.integer(5), F.octetString([]),
                F.sequence([]), F.sequence(F.generatedSigningKey),
            ])
        ),
        Malformed(
            name: "non-minimal INTEGER",
            bytes: F.sequence([
                F.tlv(0x02, [0x00, 0x03]), F.enumerated(1), F.integer(4), F.enumerated(1), F.octetString(challenge),
                F.octetString([]), F.sequence([]), F.sequence(F.generatedSigningKey),
            ])
        ),
        Malformed(
            name: "authorization list is a SET",
            bytes: F.sequence([
                F.integer(3), F.enumerated(1), F.integer(4), F.enumerated(1), F.octetString(challenge),
                F.octetString([]),
                F.sequence([]), F.set(F.generatedSigningKey),
            ])
        ),
        Malformed(
            name: "untagged entry",
            bytes: F.keyDescription(challenge: challenge, teeEnforced: F.generatedSigningKey + [F.null])
        ),
        Malformed(
            name: "duplicate origin",
            bytes: F.keyDescription(
                challenge: challenge,
                teeEnforced: F.generatedSigningKey + [F.explicit(702, F.integer(0))]
            )
        ),
        Malformed(
            name: "primitive tag",
            bytes: F.keyDescription(challenge: challenge, teeEnforced: [[0x9F, 0x85, 0x3E, 0x01, 0x00]])
        ),
        Malformed(
            name: "explicit tag with two values",
            bytes: F.keyDescription(challenge: challenge, teeEnforced: [F.explicit(702, F.integer(0) + F.integer(0))])
        ),
        Malformed(
            name: "application-class entry",
            bytes: F.keyDescription(challenge: challenge, teeEnforced: [[0x61, 0x03] + F.integer(0)])
        ),
        Malformed(
            name: "purpose not a SET",
            bytes: F.keyDescription(challenge: challenge, teeEnforced: [F.explicit(1, F.integer(2))])
        ),
        Malformed(
            name: "purpose holds a non-INTEGER",
            bytes: F.keyDescription(challenge: challenge, teeEnforced: [F.explicit(1, F.set([F.null]))])
        ),
        Malformed(
            name: "origin not an INTEGER",
            bytes: F.keyDescription(challenge: challenge, teeEnforced: [F.explicit(702, F.null)])
        ),
        Malformed(
            name: "allApplications not NULL",
            bytes: F.keyDescription(challenge: challenge, softwareEnforced: [F.explicit(600, F.integer(1))])
        ),
        Malformed(
            name: "origin too large for Int",
            bytes: F.keyDescription(
                challenge: challenge,
                teeEnforced: [F.explicit(702, F.tlv(0x02, [0x01] + Array(repeating: 0, count: 9)))]
            )
        ),
        Malformed(
            name: "too many entries",
            bytes: F.keyDescription(
                challenge: challenge,
                teeEnforced: (1000..<1200).map { F.explicit(UInt($0), F.null) }
            )
        ),
        Malformed(
            name: "too many purposes",
            bytes: F.keyDescription(
                challenge: challenge,
                teeEnforced: [F.explicit(1, F.set((0..<20).map { _ in F.integer(2) }))]
            )
        ),
        Malformed(
            name: "oversized",
            bytes: F.keyDescription(
                challenge: challenge,
                softwareEnforced: [F.explicit(709, F.octetString(Array(repeating: 0x41, count: 17_000)))]
            )
        ),
        Malformed(
            name: "nested too deep",
            bytes: F.keyDescription(
                challenge: challenge,
                softwareEnforced: [F.explicit(9000, (0..<60).reduce(F.null) { inner, _ in F.sequence([inner]) })]
            )
        ),
    ]

    @Test func parsesWellFormedDescription() throws {
        let description = try AndroidKeyDescription(derEncoded: Self.good)
        #expect(description.attestationVersion == 300)
        #expect(description.attestationSecurityLevel == .trustedEnvironment)
        #expect(description.keymasterVersion == 300)
        #expect(description.keymasterSecurityLevel == .trustedEnvironment)
        #expect(description.attestationChallenge == Self.challenge)
        #expect(description.softwareEnforced.tags == [701])
        #expect(
            description.teeEnforced
                == AndroidAuthorizationList(purpose: [2], allApplications: false, origin: 0, tags: [1, 2, 702])
        )
        #expect(AndroidKeyDescription.SecurityLevel(rawValue: 2) == .strongBox)
        #expect("\(AndroidKeyDescription.SecurityLevel(rawValue: 7))" == "SecurityLevel(7)")
    }

    @Test(arguments: malformedDescriptions)
    func rejects(_ malformed: Malformed) {
        let error = F.error { _ = try AndroidKeyDescription(derEncoded: malformed.bytes) }
        #expect(error?.code == .attestationCertificateInvalid)
    }

    /// Every prefix of a real or synthetic description, and random bytes and bit flips, either parse or
    /// throw ATTESTATION_CERTIFICATE_INVALID; nothing traps.
    @Test func survivesTruncatedAndRandomInput() throws {
        var samples = [Self.good]
        if ConformanceCorpus.shouldRun {
            for number in ["006", "036", "067", "103"] {
                let statement = try AndroidConformanceCorpus.load(number).statement()
                let leaf = try #require(try statement.certificateChain()?.first)
                let ext = try #require(leaf.extensions[oid: AndroidKeyDescription.extensionID])
                samples.append(Array(ext.value))
            }
        }
        func check(_ bytes: [UInt8]) {
            do {
                _ = try AndroidKeyDescription(derEncoded: bytes)
            } catch {
                #expect(error.code == .attestationCertificateInvalid)
            }
        }
        var generator = SplitMix64(seed: 0x5EED)
        for sample in samples {
            for end in 0..<sample.count { check(Array(sample[..<end])) }
            for _ in 0..<2_000 {
                var mutated = sample
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(
                        in: 0...255,
                        using: &generator
                    )
                }
                check(mutated)
            }
        }
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...256, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !bytes.isEmpty, Bool.random(using: &generator) { bytes[0] = 0x30 }
            check(bytes)
        }
    }
}
