import PasskeyTesting
import Testing

@testable import WebAuthn

/// §7.2 step 23 (attestation in assertions) is not implemented: such a response is refused, never half-verified.
struct AssertionAttestationTests {
    @Test("§7.2 step 23: an assertion carrying an attestation object is UNSUPPORTED_FEATURE")
    func refused() throws {
        var authenticator = TestAuthenticator()
        let record = authenticator.record
        var response = authenticator.authenticationResponse(
            challenge: Fixture.challenge,
            origin: Fixture.origin,
            rpID: Fixture.rpID
        )
        #expect(try Fixture.authenticationCeremony().verify(response, credential: record).signCount == 1)
        response.response.attestationObject = [0xA0]
        #expect(throws: WebAuthnError(.unsupportedFeature, "")) {
            try Fixture.authenticationCeremony().verify(response, credential: record)
        }
    }
}
