import Crypto
import PasskeyTesting
import Testing
import X509

@testable import WebAuthn

/// §8.2 `packed` with x5c: the signature is by the attestation certificate's key.
struct PackedCertificateAttestationTests {
    static func verify(_ response: RegistrationResponseJSON) async throws -> VerifiedRegistration {
        try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
    }

    @Test("§8.2 (x5c): a statement signed by the attestation key verifies as basic attestation")
    func verifies() async throws {
        let authority = try TestCertificateAuthority()
        let registration = try await Self.verify(
            try Fixture.registration(TestAuthenticator(), attestation: .packedCertificate(authority))
        )
        #expect(registration.attestation.format == .packed)
        #expect(registration.attestation.type == .basic)
        #expect(registration.attestation.trustPath.count == 1)
        #expect(registration.attestation.trustPath.first?.issuer == authority.root.subject)
        #expect(!registration.attestation.trusted)
    }

    @Test(
        "§8.2 (x5c): a signature that does not verify with the certificate key is ATTESTATION_INVALID",
        arguments: [
            "flipped", "by the credential key", "by another key",
        ]
    )
    func badSignature(_ defect: String) async throws {
        let authority = try TestCertificateAuthority()
        let authenticator = TestAuthenticator()
        let attestationKey = P256.Signing.PrivateKey()
        let certificate = try authority.issue(for: .init(attestationKey.publicKey))
        let response = try Fixture.registration(authenticator, format: "packed") { parts in
            let signed = parts.authenticatorData + parts.clientDataHash
            var sig =
                switch defect {
                case "by the credential key": authenticator.key.sign(signed)
                case "by another key": TestSigningKey.generate(.es256).sign(signed)
                default: TestSigningKey.p256(attestationKey).sign(signed)
                }
            if defect == "flipped" { sig[sig.count - 1] ^= 0x01 }
            return .map([
                CBORMapEntry(.text("alg"), CBORValue(-7)), CBORMapEntry(.text("sig"), .bytes(sig)),
                CBORMapEntry(.text("x5c"), .array([.bytes(certificate.derBytes)])),
            ])
        }
        await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
    }

    @Test("§8.2 (x5c): alg must suit the certificate's key type", arguments: [-8, -257, -37])
    func algorithmOfAnotherKeyType(_ alg: Int) async throws {
        let response = try Fixture.rewritingStatement(
            try Fixture.registration(
                TestAuthenticator(),
                attestation: .packedCertificate(try TestCertificateAuthority())
            )
        ) { statement in Fixture.set("alg", CBORValue(alg), in: &statement) }
        await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
    }

    @Test(
        "§8.2 (x5c): x5c must be a non-empty array of certificates",
        arguments: [
            (CBORValue.array([]), WebAuthnError.Code.attestationInvalid), (.bytes([0x30, 0x00]), .attestationInvalid),
            (.array([.text("MIIB")]), .attestationInvalid),
            (.array([.bytes([0x30, 0x03, 0x02, 0x01, 0x00])]), .attestationCertificateInvalid),
            (.array([.bytes([])]), .attestationCertificateInvalid),
        ]
    )
    func malformedX5C(_ x5c: CBORValue, _ expected: WebAuthnError.Code) async throws {
        let response = try Fixture.rewritingStatement(
            try Fixture.registration(
                TestAuthenticator(),
                attestation: .packedCertificate(try TestCertificateAuthority())
            )
        ) { statement in Fixture.set("x5c", x5c, in: &statement) }
        await #expect(throws: code(expected)) { try await Self.verify(response) }
    }
}
