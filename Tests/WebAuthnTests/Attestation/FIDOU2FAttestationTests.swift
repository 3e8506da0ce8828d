import Crypto
import PasskeyTesting
import Testing
import X509

@testable import WebAuthn

/// §8.6 `fido-u2f`: `{sig, x5c}` from a U2F authenticator.
struct FIDOU2FAttestationTests {
    static func verify(_ response: RegistrationResponseJSON) async throws -> VerifiedRegistration {
        try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
    }

    /// A fido-u2f statement built by hand: `sign` signs the verification data.
    static func response(
        _ authenticator: TestAuthenticator,
        certificate: Certificate,
        sign: ([UInt8]) -> [UInt8],
        verificationData: (SignedParts, [UInt8]) -> [UInt8] = { parts, credential in
            [0x00] + parts.rpIDHash + parts.clientDataHash + credential
        }
    ) throws -> RegistrationResponseJSON {
        guard case .p256(let credentialKey) = authenticator.key else {
            throw FixtureError(description: "the fixture needs a P-256 credential")
        }
        let credential = authenticator.credentialID + Array(credentialKey.publicKey.x963Representation)
        return try Fixture.registration(authenticator, format: "fido-u2f") { parts in
            .map([
                CBORMapEntry(.text("sig"), .bytes(sign(verificationData(parts, credential)))),
                CBORMapEntry(.text("x5c"), .array([.bytes(certificate.derBytes)])),
            ])
        }
    }

    @Test("§8.6: a U2F statement verifies as basic attestation")
    func verifies() async throws {
        let registration = try await Self.verify(
            try Fixture.registration(TestAuthenticator(), attestation: .fidoU2F(try TestCertificateAuthority()))
        )
        #expect(registration.attestation.format == .fidoU2F)
        #expect(registration.attestation.type == .basic)
        #expect(registration.attestation.trustPath.count == 1)
    }

    @Test("§8.6 step 2: an attestation certificate whose key is not P-256 is ATTESTATION_CERTIFICATE_INVALID")
    func certificateKeyNotP256() async throws {
        let authority = try TestCertificateAuthority()
        let p384 = P384.Signing.PrivateKey()
        let response = try Self.response(
            TestAuthenticator(),
            certificate: try authority.issue(for: .init(p384.publicKey))
        ) {
            TestSigningKey.p384(p384).sign($0)
        }
        await #expect(throws: code(.attestationCertificateInvalid)) { try await Self.verify(response) }
        // The same statement with a P-256 attestation key verifies (so the key type is what failed).
        let p256 = P256.Signing.PrivateKey()
        let valid = try Self.response(TestAuthenticator(), certificate: try authority.issue(for: .init(p256.publicKey)))
        { TestSigningKey.p256(p256).sign($0) }
        _ = try await Self.verify(valid)
    }

    @Test(
        "§8.6 step 3: a credential key that is not EC2 P-256 is ATTESTATION_INVALID",
        arguments: [COSEAlgorithmIdentifier.es384, .es512, .edDSA]
    )
    func credentialNotP256(_ algorithm: COSEAlgorithmIdentifier) async throws {
        let response = try Fixture.registration(
            TestAuthenticator(algorithm: algorithm),
            attestation: .fidoU2F(try TestCertificateAuthority())
        )
        await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
    }

    @Test(
        "§8.6 steps 5–6: a signature that does not verify over the U2F verification data is ATTESTATION_INVALID",
        arguments: [
            "flipped", "no leading zero", "rpIdHash missing", "over authData || hash", "by another key",
        ]
    )
    func badSignature(_ defect: String) async throws {
        let authority = try TestCertificateAuthority()
        let key = P256.Signing.PrivateKey()
        let certificate = try authority.issue(for: .init(key.publicKey))
        let signer = defect == "by another key" ? TestSigningKey.generate(.es256) : TestSigningKey.p256(key)
        let response = try Self.response(
            TestAuthenticator(),
            certificate: certificate,
            sign: { data in
                var sig = signer.sign(data)
                if defect == "flipped" { sig[sig.count - 1] ^= 0x01 }
                return sig
            },
            verificationData: { parts, credential in
                switch defect {
                case "no leading zero": parts.rpIDHash + parts.clientDataHash + credential
                case "rpIdHash missing": [0x00] + parts.clientDataHash + credential
                case "over authData || hash": parts.authenticatorData + parts.clientDataHash
                default: [0x00] + parts.rpIDHash + parts.clientDataHash + credential
                }
            }
        )
        await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
    }

    @Test("§8.6 step 2: x5c must hold exactly one certificate", arguments: [0, 2, 3])
    func certificateCount(_ count: Int) async throws {
        let authority = try TestCertificateAuthority()
        let response = try Fixture.rewritingStatement(
            try Fixture.registration(TestAuthenticator(), attestation: .fidoU2F(authority))
        ) { statement in
            guard let leaf = statement.first(where: { $0.key == .text("x5c") })?.value.arrayValue?.first else {
                Issue.record("the fixture's statement has no x5c certificate")
                return
            }
            let chain = Array(
                ([leaf] + Array(repeating: CBORValue.bytes(authority.root.derBytes), count: 2)).prefix(count)
            )
            Fixture.set("x5c", .array(chain), in: &statement)
        }
        await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
    }

    @Test(
        "§8.6 step 1: a statement without sig or x5c, or with other members, is ATTESTATION_INVALID",
        arguments: ["no sig", "no x5c", "alg"]
    )
    func malformedStatement(_ defect: String) async throws {
        let response = try Fixture.rewritingStatement(
            try Fixture.registration(TestAuthenticator(), attestation: .fidoU2F(try TestCertificateAuthority()))
        ) { statement in
            switch defect {
            case "no sig": statement.removeAll { $0.key == .text("sig") }
            case "no x5c": statement.removeAll { $0.key == .text("x5c") }
            default: Fixture.set("alg", CBORValue(-7), in: &statement)
            }
        }
        await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
    }
}
