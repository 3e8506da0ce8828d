import Crypto
import Foundation
import PasskeyTesting
import SwiftASN1
import Testing
import X509

@testable import WebAuthn

/// WebAuthn §7.1 steps 22–23 with FIDO metadata: an attested authenticator's model entry supplies trust anchors
/// and refuses compromised models; unattested AAGUIDs are never looked up.
struct MetadataRegistrationTests {
    typealias F = MetadataFixture

    static func verify(
        _ response: RegistrationResponseJSON,
        metadata: MetadataPolicy,
        trustAnchors: [AttestationFormat: [Certificate]] = [:],
        requireTrustedAttestation: Bool = false,
        at time: Date = Fixture.now
    ) async throws -> VerifiedAttestation {
        let policy = AttestationPolicy(
            trustAnchors: trustAnchors,
            requireTrustedAttestation: requireTrustedAttestation,
            metadata: metadata
        )
        return try await Fixture.registrationCeremony(attestation: policy).verify(response, at: time).attestation
    }

    static func packed(_ authority: TestCertificateAuthority) throws -> RegistrationResponseJSON {
        try Fixture.registration(TestAuthenticator(), attestation: .packedCertificate(authority))
    }

    @Test(
        "§7.1 step 22: the entry's attestation roots are trust anchors; a chain to them is trusted and the entry reported"
    )
    func trustedThroughMetadata() async throws {
        let authority = try TestCertificateAuthority()
        let response = try Self.packed(authority)
        let blob = try await F.blob(for: authority)
        #expect(try await Self.verify(response, metadata: MetadataPolicy(blob: blob, requireEntry: true)).trusted)
        let attestation = try await Self.verify(
            response,
            metadata: MetadataPolicy(blob: blob),
            requireTrustedAttestation: true
        )
        #expect(attestation.metadata?.description == "Test Key by swift-passkeys")
        #expect(attestation.metadata?.aaguid == (try AAGUID(bytes: F.aaguid)))
        // Without metadata the same registration has no anchor.
        let plain = try await Fixture.registrationCeremony().verify(response, at: Fixture.now).attestation
        #expect(!plain.trusted && plain.metadata == nil)
    }

    static let compromised = AuthenticatorStatus.compromised.sorted { $0.rawValue < $1.rawValue }

    @Test(
        "§3.1.4: a model whose latest status is a compromise or REVOKED is AUTHENTICATOR_COMPROMISED",
        arguments: compromised
    )
    func compromisedStatus(_ status: AuthenticatorStatus) async throws {
        let authority = try TestCertificateAuthority()
        let blob = try await F.blob(for: authority, statuses: [.fidoCertified, status])
        let error = await #expect(throws: WebAuthnError.self) {
            try await Self.verify(try Self.packed(authority), metadata: MetadataPolicy(blob: blob))
        }
        #expect(error?.code == .authenticatorCompromised)
        #expect(error?.reason.contains(status.rawValue) == true)
        #expect(error?.reason.contains("Test Key by swift-passkeys") == true)
    }

    @Test(
        "§3.1.4: other statuses, known or not, do not refuse",
        arguments: [
            AuthenticatorStatus.notFIDOCertified, .fidoCertified, .updateAvailable, .selfAssertionSubmitted,
            .fidoCertifiedL1, .fidoCertifiedL2Plus, .fidoCertifiedL3Plus, "A_FUTURE_STATUS",
        ]
    )
    func otherStatus(_ status: AuthenticatorStatus) async throws {
        let authority = try TestCertificateAuthority()
        let blob = try await F.blob(for: authority, statuses: [status])
        #expect(try await Self.verify(try Self.packed(authority), metadata: MetadataPolicy(blob: blob)).trusted)
    }

    @Test("§3.1.3: the latest status report decides: FIDO_CERTIFIED listed after REVOKED is accepted, not the reverse")
    func latestStatusWins() async throws {
        let authority = try TestCertificateAuthority()
        let response = try Self.packed(authority)
        let restored = try await F.blob(for: authority, statuses: [.revoked, .fidoCertified])
        #expect(try await Self.verify(response, metadata: MetadataPolicy(blob: restored)).trusted)
        let revoked = try await F.blob(for: authority, statuses: [.fidoCertified, .revoked])
        await #expect(throws: code(.authenticatorCompromised)) {
            try await Self.verify(response, metadata: MetadataPolicy(blob: revoked))
        }
    }

    @Test("An attested authenticator without an entry is METADATA_ENTRY_NOT_FOUND when an entry is required")
    func entryRequired() async throws {
        let authority = try TestCertificateAuthority()
        var authenticator = TestAuthenticator()
        authenticator.aaguid = [UInt8](repeating: 0xBB, count: 16)
        let response = try Fixture.registration(authenticator, attestation: .packedCertificate(authority))
        let blob = try await F.blob(for: authority)
        await #expect(throws: code(.metadataEntryNotFound)) {
            try await Self.verify(response, metadata: MetadataPolicy(blob: blob, requireEntry: true))
        }
        // Not required: verified as without metadata (no anchor, so not trusted).
        let attestation = try await Self.verify(response, metadata: MetadataPolicy(blob: blob))
        #expect(!attestation.trusted && attestation.metadata == nil)
    }

    @Test("Claiming a model needs its attestation: a chain that misses the entry's roots is ATTESTATION_UNTRUSTED")
    func chainMissesTheEntryRoots() async throws {
        let listed = try TestCertificateAuthority()
        let blob = try await F.blob(for: listed)
        let impostor = try Self.packed(try TestCertificateAuthority(name: "Impostor"))
        await #expect(throws: code(.attestationUntrusted)) {
            try await Self.verify(impostor, metadata: MetadataPolicy(blob: blob))
        }
    }

    @Test("A chain to a per-format anchor is trusted, but an entry whose roots it does not reach is not reported")
    func formatAnchorDoesNotVouchForTheEntry() async throws {
        let authority = try TestCertificateAuthority()
        let blob = try await F.blob(for: try TestCertificateAuthority(name: "Vendor"))
        let attestation = try await Self.verify(
            try Self.packed(authority),
            metadata: MetadataPolicy(blob: blob),
            trustAnchors: [.packed: [authority.root]]
        )
        #expect(attestation.trusted)
        #expect(attestation.metadata == nil)
    }

    @Test(
        "none and self attestation never consult the metadata: their AAGUID gains no trust, entry or refusal",
        arguments: [TestAuthenticator.Attestation.none, .packedSelf]
    )
    func unattestedAAGUID(_ kind: TestAuthenticator.Attestation) async throws {
        let authority = try TestCertificateAuthority()
        // The AAGUID is listed, with a trusted root and a REVOKED status; an entry is required.
        let blob = try await F.blob(for: authority, statuses: [.revoked])
        let response = try Fixture.registration(TestAuthenticator(), attestation: kind)
        let attestation = try await Self.verify(response, metadata: MetadataPolicy(blob: blob, requireEntry: true))
        #expect(!attestation.trusted)
        #expect(attestation.metadata == nil)
        // Policy that requires trust still refuses it.
        await #expect(throws: code(.attestationUntrusted)) {
            try await Self.verify(response, metadata: MetadataPolicy(blob: blob), requireTrustedAttestation: true)
        }
    }

    @Test("fido-u2f: the entry is found by the attestation certificate's key identifier (RFC 5280 §4.2.1.2 method 1)")
    func u2fByKeyIdentifier() async throws {
        let authority = try TestCertificateAuthority()
        var authenticator = TestAuthenticator()
        authenticator.aaguid = AAGUID.zero.bytes
        let response = try Fixture.registration(authenticator, attestation: .fidoU2F(authority))
        let certificate = try Self.attestationCertificate(of: response)
        let identifier = certificate.attestationCertificateKeyIdentifier
        // SHA-1 of the subjectPublicKey BIT STRING's value: for a P-256 key, the uncompressed point.
        let point = try #require(P256.Signing.PublicKey(certificate.publicKey)).x963Representation
        #expect(identifier == Insecure.SHA1.hash(data: point).map { String(format: "%02x", $0) }.joined())

        let service = try TestMetadataService()
        func blob(_ statuses: [AuthenticatorStatus]) async throws -> MetadataBLOB {
            let entry = try TestMetadataService.entry(
                keyIdentifiers: [identifier],
                description: "U2F Key",
                roots: [authority.root],
                statuses: statuses
            )
            return try await F.load(try service.blob(entries: [entry]), from: service)
        }
        let attestation = try await Self.verify(
            response,
            metadata: MetadataPolicy(blob: try await blob([.fidoCertified]))
        )
        #expect(attestation.trusted)
        #expect(attestation.metadata?.description == "U2F Key")
        await #expect(throws: code(.authenticatorCompromised)) {
            try await Self.verify(response, metadata: MetadataPolicy(blob: try await blob([.attestationKeyCompromise])))
        }
    }

    @Test(
        "A BLOB that turns stale after it was loaded is METADATA_STALE at registration, unless stale BLOBs are allowed"
    )
    func staleAtRegistration() async throws {
        let authority = try TestCertificateAuthority()
        let blob = try await F.blob(for: authority, nextUpdate: "2025-07-01")
        let response = try Self.packed(authority)
        let later = Date(timeIntervalSince1970: 1_751_500_000)  // 2025-07-03
        await #expect(throws: code(.metadataStale)) {
            try await Self.verify(response, metadata: MetadataPolicy(blob: blob), at: later)
        }
        let allowed = try await Self.verify(response, metadata: MetadataPolicy(blob: blob, allowStale: true), at: later)
        #expect(allowed.trusted)
        // An unattested registration does not consult the metadata, stale or not.
        _ = try await Self.verify(
            try Fixture.registration(TestAuthenticator()),
            metadata: MetadataPolicy(blob: blob),
            at: later
        )
    }

    /// The first x5c certificate of a registration's attestation statement.
    static func attestationCertificate(of response: RegistrationResponseJSON) throws -> Certificate {
        let object = try AttestationObject(bytes: response.response.attestationObject.bytes)
        let der = try #require(object.statement[text: "x5c"]?.arrayValue?.first?.bytesValue)
        return try Certificate(derEncoded: der)
    }
}
