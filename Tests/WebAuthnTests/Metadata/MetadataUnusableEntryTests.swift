import Foundation
import PasskeyTesting
import Testing
import X509

@testable import WebAuthn

/// WebAuthn §7.1 step 22 with a BLOB whose entries are not all usable: an attested authenticator whose model has a
/// set-aside entry, or is listed by two entries, is refused with METADATA_ENTRY_UNUSABLE (whatever `requireEntry`
/// and the per-format anchors say); every other model verifies as with a flawless BLOB.
struct MetadataUnusableEntryTests {
    typealias F = MetadataFixture
    typealias R = MetadataRegistrationTests

    static let otherAAGUID = [UInt8](repeating: 0xBB, count: 16)

    /// A registration by an authenticator with this AAGUID, attested (packed with x5c) under `authority`.
    static func packed(_ authority: TestCertificateAuthority, aaguid: [UInt8]) throws -> RegistrationResponseJSON {
        var authenticator = TestAuthenticator()
        authenticator.aaguid = aaguid
        return try Fixture.registration(authenticator, attestation: .packedCertificate(authority))
    }

    /// A BLOB listing `entries`, then a certified model with `otherAAGUID` whose root is `good`'s.
    static func blob(_ entries: [[String: Any]], good: TestCertificateAuthority) async throws -> MetadataBLOB {
        let service = try TestMetadataService()
        let other = try TestMetadataService.entry(aaguid: otherAAGUID, description: "Good Key", roots: [good.root])
        return try await F.load(try service.blob(entries: entries + [other]), from: service)
    }

    /// Registering `response` against `blob` fails with METADATA_ENTRY_UNUSABLE, with a reason that mentions each of
    /// `mentions`.
    static func expectUnusable(
        _ response: RegistrationResponseJSON,
        _ blob: MetadataBLOB,
        mentioning mentions: [String],
        trustAnchors: [AttestationFormat: [Certificate]] = [:]
    ) async {
        for requireEntry in [false, true] {
            let error = await #expect(throws: WebAuthnError.self) {
                try await R.verify(
                    response,
                    metadata: MetadataPolicy(blob: blob, requireEntry: requireEntry),
                    trustAnchors: trustAnchors
                )
            }
            #expect(error?.code == .metadataEntryUnusable)
            for text in mentions {
                #expect(error?.reason.contains(text) == true, "\(String(describing: error?.reason))")
            }
        }
    }

    /// The model with `otherAAGUID` registers, trusted through its entry.
    static func expectOtherModelTrusted(_ blob: MetadataBLOB, good: TestCertificateAuthority) async throws {
        let attestation = try await R.verify(
            try packed(good, aaguid: otherAAGUID),
            metadata: MetadataPolicy(blob: blob, requireEntry: true),
            requireTrustedAttestation: true
        )
        #expect(attestation.metadata?.description == "Good Key")
    }

    @Test("An undecodable root certificate in one entry: the BLOB loads, that model is refused, another is trusted")
    func undecodableRoot() async throws {
        let (authority, good) = (try TestCertificateAuthority(), try TestCertificateAuthority(name: "Good"))
        // A decodable root (the one that issued the attestation) and one that swift-certificates cannot read.
        let broken = F.changing(
            try TestMetadataService.entry(aaguid: F.aaguid, roots: [authority.root]),
            inStatement: true
        ) { $0["attestationRootCertificates"] = ($0["attestationRootCertificates"] as? [String] ?? []) + ["MAA="] }
        let blob = try await Self.blob([broken], good: good)
        #expect(blob.unusableEntries.map(\.index) == [0])

        await Self.expectUnusable(
            try Self.packed(authority, aaguid: F.aaguid),
            blob,
            mentioning: [
                "AAGUID aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa",
                "entries[0].metadataStatement.attestationRootCertificates[1] is not a standard base64 DER certificate",
            ],
            // A per-format anchor that the chain reaches does not vouch for a model the metadata cannot describe.
            trustAnchors: [.packed: [authority.root]]
        )
        try await Self.expectOtherModelTrusted(blob, good: good)
        // A none attestation is never looked up, so an unusable AAGUID does not refuse it either.
        let unattested = try await R.verify(try Fixture.registration(TestAuthenticator()), metadata: .init(blob: blob))
        #expect(!unattested.trusted)
    }

    @Test("An AAGUID listed twice: neither entry applies, the model is refused as ambiguous; others are fine")
    func duplicateAAGUID() async throws {
        let (authority, good) = (try TestCertificateAuthority(), try TestCertificateAuthority(name: "Good"))
        // One entry would trust the attestation, the other would refuse it as revoked: which is meant is unknowable.
        let trusting = try TestMetadataService.entry(aaguid: F.aaguid, roots: [authority.root])
        let revoking = try TestMetadataService.entry(aaguid: F.aaguid, roots: [], statuses: [.revoked])
        let blob = try await Self.blob([trusting, revoking], good: good)
        #expect(blob.unusableEntries.map(\.index) == [0, 1])

        await Self.expectUnusable(
            try Self.packed(authority, aaguid: F.aaguid),
            blob,
            mentioning: ["AAGUID aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa", "more than one entry (entries[0], entries[1])"]
        )
        try await Self.expectOtherModelTrusted(blob, good: good)
    }

    @Test("A malformed status report date in one entry: that model is refused, not trusted without its status")
    func badStatusReportDate() async throws {
        let (authority, good) = (try TestCertificateAuthority(), try TestCertificateAuthority(name: "Good"))
        let entry = F.changing(try TestMetadataService.entry(aaguid: F.aaguid, roots: [authority.root])) {
            $0["statusReports"] = [
                ["status": "FIDO_CERTIFIED", "effectiveDate": "2020-01-01"],
                ["status": "REVOKED", "effectiveDate": "2025-13-01"],
            ]
        }
        let blob = try await Self.blob([entry], good: good)
        #expect(blob.unusableEntries.first?.aaguid == (try AAGUID(bytes: F.aaguid)))

        await Self.expectUnusable(
            try Self.packed(authority, aaguid: F.aaguid),
            blob,
            mentioning: ["entries[0].statusReports[1].effectiveDate is not a date"]
        )
        try await Self.expectOtherModelTrusted(blob, good: good)
    }

    @Test("fido-u2f: a key identifier whose entry is set aside is refused, naming the key identifier")
    func u2fKeyIdentifier() async throws {
        let (authority, good) = (try TestCertificateAuthority(), try TestCertificateAuthority(name: "Good"))
        var authenticator = TestAuthenticator()
        authenticator.aaguid = AAGUID.zero.bytes
        let response = try Fixture.registration(authenticator, attestation: .fidoU2F(authority))
        let identifier = try R.attestationCertificate(of: response).attestationCertificateKeyIdentifier
        let entry = F.changing(try TestMetadataService.entry(keyIdentifiers: [identifier], roots: [authority.root])) {
            $0["timeOfLastStatusChange"] = "yesterday"
        }
        let blob = try await Self.blob([entry], good: good)

        await Self.expectUnusable(
            response,
            blob,
            mentioning: [
                "attestation certificate key identifier \(identifier)",
                "entries[0].timeOfLastStatusChange is not a date",
            ]
        )
        try await Self.expectOtherModelTrusted(blob, good: good)
    }
}
