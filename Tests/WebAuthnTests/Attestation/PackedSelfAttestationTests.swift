import PasskeyTesting
import Testing

@testable import WebAuthn

/// §8.2 `packed` without x5c: self attestation, signed with the credential private key.
struct PackedSelfAttestationTests {
    static func verify(
        _ response: RegistrationResponseJSON,
        policy: AttestationPolicy = AttestationPolicy()
    ) async throws -> VerifiedRegistration {
        try await Fixture.registrationCeremony(attestation: policy).verify(response, at: Fixture.now)
    }

    @Test(
        "§8.2 (self): a statement signed by the credential key verifies as self attestation",
        arguments: [COSEAlgorithmIdentifier.es256, .es384, .es512, .edDSA, .rs256, .ps256]
    )
    func verifies(_ algorithm: COSEAlgorithmIdentifier) async throws {
        let registration = try await Self.verify(
            try Fixture.registration(TestAuthenticator(algorithm: algorithm), attestation: .packedSelf)
        )
        #expect(registration.attestation.format == .packed)
        #expect(registration.attestation.type == .self)
        #expect(registration.attestation.trustPath.isEmpty)
        #expect(!registration.attestation.trusted)
    }

    @Test("§8.2 (self): alg must be the credential public key's algorithm", arguments: [-35, -36, -8, -257, -37])
    func algorithmMismatch(_ alg: Int) async throws {
        let response = try Fixture.rewritingStatement(
            try Fixture.registration(TestAuthenticator(), attestation: .packedSelf)
        ) { statement in
            Fixture.set("alg", CBORValue(alg), in: &statement)
        }
        await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
    }

    @Test(
        "§8.2 (self): a signature that does not verify is ATTESTATION_INVALID",
        arguments: ["flipped", "empty", "over authData only", "by another key"]
    )
    func badSignature(_ defect: String) async throws {
        let authenticator = TestAuthenticator()
        let response = try Fixture.registration(authenticator, format: "packed") { parts in
            let signed =
                defect == "over authData only"
                ? parts.authenticatorData : parts.authenticatorData + parts.clientDataHash
            var sig = (defect == "by another key" ? TestSigningKey.generate(.es256) : authenticator.key).sign(signed)
            if defect == "flipped" { sig[sig.count - 3] ^= 0x04 }
            if defect == "empty" { sig = [] }
            return .map([CBORMapEntry(.text("alg"), CBORValue(-7)), CBORMapEntry(.text("sig"), .bytes(sig))])
        }
        await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
    }

    @Test(
        "§8.2: a statement without alg or sig, with mistyped members, or with unknown members is ATTESTATION_INVALID",
        arguments: [
            "no alg", "no sig", "alg as text", "sig as text", "ecdaaKeyId", "unknown member",
        ]
    )
    func malformedStatement(_ defect: String) async throws {
        let response = try Fixture.rewritingStatement(
            try Fixture.registration(TestAuthenticator(), attestation: .packedSelf)
        ) { statement in
            switch defect {
            case "no alg": statement.removeAll { $0.key == .text("alg") }
            case "no sig": statement.removeAll { $0.key == .text("sig") }
            case "alg as text": Fixture.set("alg", .text("ES256"), in: &statement)
            case "sig as text": Fixture.set("sig", .text("sig"), in: &statement)
            case "ecdaaKeyId": Fixture.set("ecdaaKeyId", .bytes([1, 2, 3]), in: &statement)
            default: Fixture.set("extra", CBORValue(1), in: &statement)
            }
        }
        await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
    }

    @Test("§8.2: an alg this library does not know is UNSUPPORTED_ALGORITHM", arguments: [-999, 0, -47])
    func unknownAlgorithm(_ alg: Int) async throws {
        let response = try Fixture.rewritingStatement(
            try Fixture.registration(TestAuthenticator(), attestation: .packedSelf)
        ) { statement in
            Fixture.set("alg", CBORValue(alg), in: &statement)
        }
        await #expect(throws: code(.unsupportedAlgorithm)) { try await Self.verify(response) }
    }

    @Test("An alg the attestation policy does not accept is UNSUPPORTED_ALGORITHM")
    func algorithmOutsidePolicy() async throws {
        let response = try Fixture.registration(TestAuthenticator(), attestation: .packedSelf)
        _ = try await Self.verify(response, policy: AttestationPolicy(statementAlgorithms: [.es256]))
        await #expect(throws: code(.unsupportedAlgorithm)) {
            try await Self.verify(response, policy: AttestationPolicy(statementAlgorithms: [.rs256, .edDSA]))
        }
    }

    @Test("§8.2: the statement covers the client data: a statement for other client data does not verify")
    func statementBindsClientData() async throws {
        let authenticator = TestAuthenticator()
        let response = try Fixture.registration(authenticator, format: "packed") { parts in
            let otherHash = parts.clientDataHash.map { $0 ^ 0xFF }
            return .map([
                CBORMapEntry(.text("alg"), CBORValue(-7)),
                CBORMapEntry(.text("sig"), .bytes(authenticator.key.sign(parts.authenticatorData + otherHash))),
            ])
        }
        await #expect(throws: code(.attestationInvalid)) { try await Self.verify(response) }
    }
}
