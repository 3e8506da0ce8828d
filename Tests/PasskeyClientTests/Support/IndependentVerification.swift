import Foundation
import PasskeyClient
import WebAuthn

/// Writes the software authenticator's responses for an independent verifier (py_webauthn, run by
/// `Tests/External/verify_software_authenticator.py` from `scripts/test.sh`) when
/// `PASSKEYS_INDEPENDENT_VERIFIER_DIR` names a folder; otherwise does nothing.
enum IndependentVerification {
    static let directory = ProcessInfo.processInfo.environment["PASSKEYS_INDEPENDENT_VERIFIER_DIR"].flatMap {
        $0.isEmpty ? nil : $0
    }

    struct Case: Encodable {
        let name: String
        let rpId = Fixtures.rpID
        let origin = Fixtures.origin
        let challenge = Base64URL.encode(Fixtures.challenge)
        let requireUserVerification = true
        let registration: RegistrationResponseJSON
        var authentication: AuthenticationResponseJSON?

        init(behaviour: SoftwareAuthenticator.Behaviour, registration: RegistrationResponseJSON) {
            name =
                "\(behaviour.attestation.rawValue)-\(behaviour.counter.rawValue)-\(behaviour.backup.rawValue)-\(behaviour.residentKeys ? "resident" : "server-side")"
            self.registration = registration
        }

        func write() throws {
            guard let directory = IndependentVerification.directory else { return }
            try Data(WebAuthnJSON.encode(self)).write(
                to: URL(fileURLWithPath: directory).appendingPathComponent("\(name).json")
            )
        }
    }
}
