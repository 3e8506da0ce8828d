import Foundation
import PasskeyClient
import Testing

/// `PasskeyError` as Foundation shows errors (`LocalizedError`).
@Suite("PasskeyError as a LocalizedError")
struct LocalizedErrorTests {
    @Test("localizedDescription is the SDK's message, whatever code")
    func description() {
        let error: any Error = PasskeyError(.passkeyNotFound, "No passkey with id abc is on this device.")
        #expect(error.localizedDescription == "No passkey with id abc is on this device.")
        #expect((error as? any LocalizedError)?.failureReason == "PASSKEY_NOT_FOUND")
    }

    @Test(
        "codes the person can act on carry a recovery suggestion",
        arguments: [
            PasskeyError.Code.biometricLockout, .networkError, .timeout, .rateLimited, .passkeyNotFound,
            .passkeyAlreadyExists, .hardwareNotAvailable, .challengeExpired, .recoveryAttemptExpired,
        ]
    )
    func suggestion(code: PasskeyError.Code) {
        #expect(PasskeyError(code, "message").recoverySuggestion?.isEmpty == false)
    }

    @Test(
        "codes that are the app's or the server's own mistakes carry none",
        arguments: [
            PasskeyError.Code.invalidConfiguration, .invalidInput, .serverError, .authContextMismatch,
            "SOME_NEWER_CODE",
        ]
    )
    func noSuggestion(code: PasskeyError.Code) {
        #expect(PasskeyError(code, "message").recoverySuggestion == nil)
    }
}
