import Crypto
import Foundation
import PasskeyTesting
import SwiftASN1
import Testing
import X509

@testable import WebAuthn

/// §7.1 steps 22–23: the attestation trust path is assessed against the format's trust anchors, at a given time.
struct TrustEvaluationTests {
    /// A packed registration whose x5c is `chain(leaf)`, the leaf issued for the attestation key by `issue`.
    static func response(
        issue: (Certificate.PublicKey) throws -> Certificate,
        chain: (Certificate) -> [Certificate] = { [$0] }
    ) throws -> RegistrationResponseJSON {
        let key = P256.Signing.PrivateKey()
        let leaf = try issue(.init(key.publicKey))
        return try Fixture.registration(TestAuthenticator(), format: "packed") { parts in
            CertificateFixture.packedStatement(parts, attestationKey: key, chain: chain(leaf))
        }
    }

    static func verify(
        _ response: RegistrationResponseJSON,
        anchors: [Certificate]?,
        at time: Date = Fixture.now
    ) async throws -> VerifiedAttestation {
        let policy = AttestationPolicy(trustAnchors: anchors.map { [.packed: $0] } ?? [:])
        return try await Fixture.registrationCeremony(attestation: policy).verify(response, at: time).attestation
    }

    @Test("§7.1 step 23: a chain to the configured root is trusted")
    func trustedWithAnchor() async throws {
        let authority = try TestCertificateAuthority()
        let response = try Self.response(issue: { try authority.issue(for: $0) })
        #expect(try await Self.verify(response, anchors: [authority.root]).trusted)
        // The root may also travel in x5c.
        let withRoot = try Self.response(issue: { try authority.issue(for: $0) }, chain: { [$0, authority.root] })
        #expect(try await Self.verify(withRoot, anchors: [authority.root]).trusted)
        // Among several anchors.
        #expect(
            try await Self.verify(
                response,
                anchors: [try TestCertificateAuthority(name: "Other").root, authority.root]
            ).trusted
        )
    }

    @Test("§7.1 step 23: a chain to another root is ATTESTATION_UNTRUSTED")
    func anotherRoot() async throws {
        let authority = try TestCertificateAuthority()
        let other = try TestCertificateAuthority()
        let response = try Self.response(issue: { try authority.issue(for: $0) })
        await #expect(throws: code(.attestationUntrusted)) { try await Self.verify(response, anchors: [other.root]) }
        // Even when the other root has the same name.
        let sameName = try TestCertificateAuthority()
        #expect(sameName.root.subject == authority.root.subject)
        await #expect(throws: code(.attestationUntrusted)) { try await Self.verify(response, anchors: [sameName.root]) }
    }

    @Test(
        "§7.1 step 23: outside the certificates' validity at the verification time, the chain is ATTESTATION_UNTRUSTED",
        arguments: [
            TestCertificateAuthority.notAfter.addingTimeInterval(86_400),
            TestCertificateAuthority.notBefore.addingTimeInterval(-86_400),
        ]
    )
    func outsideValidity(_ time: Date) async throws {
        let authority = try TestCertificateAuthority()
        let response = try Self.response(issue: { try authority.issue(for: $0) })
        #expect(try await Self.verify(response, anchors: [authority.root], at: Fixture.now).trusted)
        await #expect(throws: code(.attestationUntrusted)) {
            try await Self.verify(response, anchors: [authority.root], at: time)
        }
    }

    @Test("§7.1 step 23: an expired leaf under a valid root is ATTESTATION_UNTRUSTED at the verification time")
    func expiredLeaf() async throws {
        let root = try Hierarchy()
        let response = try Self.response(issue: {
            try root.issueLeaf(for: $0, notAfter: Fixture.now.addingTimeInterval(-86_400))
        })
        await #expect(throws: code(.attestationUntrusted)) {
            try await Self.verify(response, anchors: [root.certificate])
        }
        let valid = try Self.response(issue: { try root.issueLeaf(for: $0) })
        #expect(try await Self.verify(valid, anchors: [root.certificate]).trusted)
    }

    @Test("§7.1 step 23: an intermediate in x5c completes the path; without it the chain is ATTESTATION_UNTRUSTED")
    func intermediate() async throws {
        let root = try Hierarchy()
        let intermediate = try root.issueIntermediate()
        let complete = try Self.response(
            issue: { try intermediate.issueLeaf(for: $0) },
            chain: { [$0, intermediate.certificate] }
        )
        #expect(try await Self.verify(complete, anchors: [root.certificate]).trusted)
        let incomplete = try Self.response(issue: { try intermediate.issueLeaf(for: $0) })
        await #expect(throws: code(.attestationUntrusted)) {
            try await Self.verify(incomplete, anchors: [root.certificate])
        }
    }

    @Test(
        "Without anchors, x5c must still be a chain: each certificate signed by the next (else ATTESTATION_CERTIFICATE_INVALID)"
    )
    func chainWithoutAnchors() async throws {
        let authority = try TestCertificateAuthority()
        let other = try TestCertificateAuthority()
        let consistent = try Self.response(issue: { try authority.issue(for: $0) }, chain: { [$0, authority.root] })
        #expect(try await Self.verify(consistent, anchors: nil).trusted == false)
        let broken = try Self.response(issue: { try authority.issue(for: $0) }, chain: { [$0, other.root] })
        await #expect(throws: code(.attestationCertificateInvalid)) { try await Self.verify(broken, anchors: nil) }
        // An empty anchor list is the same as none.
        await #expect(throws: code(.attestationCertificateInvalid)) { try await Self.verify(broken, anchors: []) }
    }
}

/// A CA built here (root or intermediate), for paths `TestCertificateAuthority` does not make.
struct Hierarchy {
    let key: P256.Signing.PrivateKey
    let certificate: Certificate

    /// A self-signed root.
    init() throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            CountryName("US")
            OrganizationName("Hierarchy")
            CommonName("Root \(UInt32.random(in: 0...UInt32.max))")
        }
        self.key = key
        certificate = try CertificateFixture.make(
            for: .init(key.publicKey),
            subject: name,
            issuerKey: key,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                KeyUsage(keyCertSign: true)
            }
        )
    }

    private init(certificate: Certificate, key: P256.Signing.PrivateKey) {
        self.certificate = certificate
        self.key = key
    }

    func issueIntermediate() throws -> Hierarchy {
        let intermediateKey = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            CountryName("US")
            OrganizationName("Hierarchy")
            CommonName("Intermediate")
        }
        let certificate = try CertificateFixture.make(
            for: .init(intermediateKey.publicKey),
            subject: name,
            issuer: self.certificate.subject,
            issuerKey: key,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                KeyUsage(keyCertSign: true)
            }
        )
        return Hierarchy(certificate: certificate, key: intermediateKey)
    }

    func issueLeaf(
        for subjectKey: Certificate.PublicKey,
        notAfter: Date = TestCertificateAuthority.notAfter
    ) throws -> Certificate {
        try CertificateFixture.make(
            for: subjectKey,
            subject: try CertificateFixture.subject(),
            issuer: certificate.subject,
            issuerKey: key,
            notAfter: notAfter
        )
    }
}
