import PasskeyTesting
import Testing

@testable import WebAuthn

/// §8.7 `none`: an empty statement, no attestation.
struct NoneAttestationTests {
    @Test("§8.7: an empty statement verifies as attestation type none, untrusted, without a trust path")
    func verifies() async throws {
        let registration = try await Fixture.registrationCeremony().verify(
            try Fixture.registration(TestAuthenticator()),
            at: Fixture.now
        )
        #expect(registration.attestation.format == .none)
        #expect(registration.attestation.type == .none)
        #expect(registration.attestation.trustPath.isEmpty)
        #expect(!registration.attestation.trusted)
        #expect(registration.attestation.components.isEmpty)
    }

    @Test(
        "§8.7: a non-empty statement is ATTESTATION_INVALID",
        arguments: [
            CBORMapEntry(.text("alg"), CBORValue(-7)), CBORMapEntry(.text("sig"), .bytes([1])),
            CBORMapEntry(.text("x"), .null),
        ]
    )
    func nonEmptyStatement(_ member: CBORMapEntry) async throws {
        let response = try Fixture.rewritingStatement(try Fixture.registration(TestAuthenticator())) {
            $0.append(member)
        }
        await #expect(throws: code(.attestationInvalid)) {
            try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        }
    }
}
