import PasskeyTesting
import Testing
import X509

@testable import WebAuthn

/// §7.1 steps 20–23 and 27 as the ceremony applies them: which formats are accepted and whether trust is required.
struct AttestationPolicyStepTests {
    @Test("§7.1 step 20: a format outside the relying party's allowed formats is ATTESTATION_FORMAT_NOT_ALLOWED")
    func formatNotAllowed() async throws {
        let response = try Fixture.registration(TestAuthenticator(), attestation: .none)
        let onlyNone = Fixture.registrationCeremony(attestation: AttestationPolicy(allowedFormats: [.none]))
        _ = try await onlyNone.verify(response, at: Fixture.now)
        let onlyPacked = Fixture.registrationCeremony(
            attestation: AttestationPolicy(allowedFormats: [.packed, .fidoU2F])
        )
        await #expect(throws: code(.attestationFormatNotAllowed)) {
            try await onlyPacked.verify(response, at: Fixture.now)
        }
        let packed = try Fixture.registration(TestAuthenticator(), attestation: .packedSelf)
        _ = try await onlyPacked.verify(packed, at: Fixture.now)
        await #expect(throws: code(.attestationFormatNotAllowed)) { try await onlyNone.verify(packed, at: Fixture.now) }
    }

    @Test(
        "§7.1 step 20: an unknown format, matched case-sensitively, is ATTESTATION_FORMAT_UNSUPPORTED",
        arguments: [
            "not_real_fmt", "Packed", "NONE", "", "fido-u2f ", "android-key-v2",
        ]
    )
    func unknownFormat(_ fmt: String) async throws {
        let response = try Fixture.rewritingAttestationObject(try Fixture.registration(TestAuthenticator())) { object in
            Fixture.set("fmt", .text(fmt), in: &object)
        }
        await #expect(throws: code(.attestationFormatUnsupported)) {
            try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        }
        // Listing it among the allowed formats does not make it verifiable.
        let permissive = Fixture.registrationCeremony(
            attestation: AttestationPolicy(allowedFormats: [AttestationFormat(rawValue: fmt), .none])
        )
        await #expect(throws: code(.attestationFormatUnsupported)) {
            try await permissive.verify(response, at: Fixture.now)
        }
    }

    @Test(
        "§7.1 step 27: requireTrustedAttestation rejects none, self and anchorless attestation as ATTESTATION_UNTRUSTED"
    )
    func requireTrustedAttestation() async throws {
        let authority = try TestCertificateAuthority()
        let strict = Fixture.registrationCeremony(attestation: AttestationPolicy(requireTrustedAttestation: true))
        for attestation: TestAuthenticator.Attestation in [
            .none, .packedSelf, .packedCertificate(authority), .fidoU2F(authority),
        ] {
            let response = try Fixture.registration(TestAuthenticator(), attestation: attestation)
            _ = try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
            await #expect(throws: code(.attestationUntrusted)) { try await strict.verify(response, at: Fixture.now) }
        }
    }

    @Test("§7.1 steps 22–23, 27: a chain to a configured anchor is trusted and passes requireTrustedAttestation")
    func trustedAttestationAccepted() async throws {
        let authority = try TestCertificateAuthority()
        let policy = AttestationPolicy(
            trustAnchors: [.packed: [authority.root], .fidoU2F: [authority.root]],
            requireTrustedAttestation: true
        )
        for attestation: TestAuthenticator.Attestation in [.packedCertificate(authority), .fidoU2F(authority)] {
            let response = try Fixture.registration(TestAuthenticator(), attestation: attestation)
            let registration = try await Fixture.registrationCeremony(attestation: policy).verify(
                response,
                at: Fixture.now
            )
            #expect(registration.attestation.trusted)
            #expect(registration.attestation.type == .basic)
            #expect(registration.attestation.trustPath.count == 1)
        }
    }

    @Test("§7.1 step 22: anchors are per format: a packed anchor does not make fido-u2f trusted")
    func anchorsArePerFormat() async throws {
        let authority = try TestCertificateAuthority()
        let policy = AttestationPolicy(trustAnchors: [.packed: [authority.root]])
        let response = try Fixture.registration(TestAuthenticator(), attestation: .fidoU2F(authority))
        let registration = try await Fixture.registrationCeremony(attestation: policy).verify(response, at: Fixture.now)
        #expect(!registration.attestation.trusted)
    }
}
