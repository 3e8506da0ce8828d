import Crypto
import PasskeyTesting
import SwiftASN1
import Testing
import X509

@testable import WebAuthn

/// §8.2.1: the requirements on a packed attestation certificate, each violated alone.
struct PackedCertificateRequirementsTests {
    /// A packed registration whose x5c holds `certificate`, made for `attestationKey` and signed with it.
    static func verify(
        certificate: (Certificate.PublicKey) throws -> Certificate,
        authenticator: TestAuthenticator = TestAuthenticator()
    ) async throws -> VerifiedRegistration {
        let attestationKey = P256.Signing.PrivateKey()
        let leaf = try certificate(.init(attestationKey.publicKey))
        let response = try Fixture.registration(authenticator, format: "packed") { parts in
            CertificateFixture.packedStatement(parts, attestationKey: attestationKey, chain: [leaf])
        }
        return try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
    }

    @Test("§8.2.1: a certificate meeting every requirement is accepted (issued by the test CA, or built here)")
    func baseline() async throws {
        let authority = try TestCertificateAuthority()
        _ = try await Self.verify { try authority.issue(for: $0) }
        _ = try await Self.verify { try CertificateFixture.make(for: $0, subject: try CertificateFixture.subject()) }
    }

    @Test(
        "§8.2.1: Subject-OU must be exactly \"Authenticator Attestation\"",
        arguments: [
            "Authenticator attestation", "Authenticator Attestation ", "", "Attestation", "AUTHENTICATOR ATTESTATION",
        ]
    )
    func organizationalUnit(_ unit: String) async throws {
        let authority = try TestCertificateAuthority()
        await #expect(throws: code(.attestationCertificateInvalid)) {
            try await Self.verify { try authority.issue(for: $0, organizationalUnit: unit) }
        }
    }

    @Test(
        "§8.2.1: Subject-C, Subject-O, Subject-OU and Subject-CN must be present and well-formed",
        arguments: [
            "no C", "C of three letters", "C of one letter", "no O", "empty O", "no OU", "no CN", "empty CN",
        ]
    )
    func subject(_ defect: String) async throws {
        let subject =
            switch defect {
            case "no C": try CertificateFixture.subject(country: nil)
            case "C of three letters": try CertificateFixture.subject(country: "USA")
            case "C of one letter": try CertificateFixture.subject(country: "U")
            case "no O": try CertificateFixture.subject(organization: nil)
            case "empty O": try CertificateFixture.subject(organization: "")
            case "no OU": try CertificateFixture.subject(unit: nil)
            case "no CN": try CertificateFixture.subject(commonName: nil)
            default: try CertificateFixture.subject(commonName: "")
            }
        await #expect(throws: code(.attestationCertificateInvalid)) {
            try await Self.verify { try CertificateFixture.make(for: $0, subject: subject) }
        }
    }

    @Test("§8.2.1: basic constraints must say the certificate is not a CA")
    func certificateAuthority() async throws {
        let authority = try TestCertificateAuthority()
        await #expect(throws: code(.attestationCertificateInvalid)) {
            try await Self.verify { try authority.issue(for: $0, isCertificateAuthority: true) }
        }
        // Without the basic constraints extension the CA component is not set to false either.
        await #expect(throws: code(.attestationCertificateInvalid)) {
            try await Self.verify {
                try CertificateFixture.make(
                    for: $0,
                    subject: try CertificateFixture.subject(),
                    extensions: Certificate.Extensions()
                )
            }
        }
    }

    @Test("§8.2.1: the certificate must be X.509 version 3", arguments: [Certificate.Version.v1])
    func version(_ version: Certificate.Version) async throws {
        await #expect(throws: code(.attestationCertificateInvalid)) {
            try await Self.verify {
                try CertificateFixture.make(
                    for: $0,
                    version: version,
                    subject: try CertificateFixture.subject(),
                    extensions: Certificate.Extensions()
                )
            }
        }
    }

    @Test("§8.2.1: an id-fido-gen-ce-aaguid extension that matches the AAGUID is accepted")
    func aaguidMatches() async throws {
        let authority = try TestCertificateAuthority()
        let authenticator = TestAuthenticator()
        let registration = try await Self.verify(
            certificate: { try authority.issue(for: $0, aaguidExtension: authenticator.aaguid) },
            authenticator: authenticator
        )
        #expect(registration.aaguid.bytes == authenticator.aaguid)
    }

    @Test(
        "§8.2.1: an id-fido-gen-ce-aaguid extension naming another AAGUID is ATTESTATION_CERTIFICATE_INVALID",
        arguments: [
            [UInt8](repeating: 0xBB, count: 16), [UInt8](repeating: 0xAA, count: 15),
            [UInt8](repeating: 0xAA, count: 17), [],
        ]
    )
    func aaguidMismatch(_ aaguid: [UInt8]) async throws {
        let authority = try TestCertificateAuthority()
        let authenticator = TestAuthenticator()
        #expect(authenticator.aaguid != aaguid)
        await #expect(throws: code(.attestationCertificateInvalid)) {
            try await Self.verify(
                certificate: { try authority.issue(for: $0, aaguidExtension: aaguid) },
                authenticator: authenticator
            )
        }
    }

    @Test("§8.2.1: the id-fido-gen-ce-aaguid extension must not be critical")
    func aaguidCritical() async throws {
        let authority = try TestCertificateAuthority()
        let authenticator = TestAuthenticator()
        let critical = try CertificateFixture.aaguidExtension(authenticator.aaguid, critical: true)
        await #expect(throws: code(.attestationCertificateInvalid)) {
            try await Self.verify(
                certificate: { try authority.issue(for: $0, extraExtensions: [critical]) },
                authenticator: authenticator
            )
        }
    }

    @Test("§8.2.1: an id-fido-gen-ce-aaguid extension that is not an OCTET STRING is ATTESTATION_CERTIFICATE_INVALID")
    func aaguidNotOctetString() async throws {
        let authority = try TestCertificateAuthority()
        let authenticator = TestAuthenticator()
        let raw = Certificate.Extension(
            oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4],
            critical: false,
            value: (authenticator.aaguid)[...]
        )
        await #expect(throws: code(.attestationCertificateInvalid)) {
            try await Self.verify(
                certificate: { try authority.issue(for: $0, extraExtensions: [raw]) },
                authenticator: authenticator
            )
        }
    }
}
