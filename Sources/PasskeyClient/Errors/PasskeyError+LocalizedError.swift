public import Foundation

/// `PasskeyError` as Foundation shows errors: `localizedDescription` (and SwiftUI's alerts, `NSError` bridging)
/// carry the SDK's message, and ``recoverySuggestion`` a next step for the codes where the person using the app
/// can do something about it. The texts are English and meant for developers and logs; show your own words to
/// the people using your app, chosen by ``PasskeyError/code``.
extension PasskeyError: LocalizedError {
    public var errorDescription: String? { message }

    public var failureReason: String? { code.rawValue }

    public var recoverySuggestion: String? { code.recoverySuggestion }
}

extension PasskeyError.Code {
    /// What the person (or the app) can do next, for the codes where a next step exists; nil for the others.
    var recoverySuggestion: String? {
        switch self {
        case .networkError: "Check the connection to the internet, then try again."
        case .timeout: "The server did not answer in time; try again."
        case .rateLimited, .recoveryRateLimited: "Too many attempts; wait a moment, then try again."
        case .biometricLockout:
            "Biometrics are locked; unlock the device with its passcode, then try again."
        case .userVerificationFailed: "Try again with Face ID, Touch ID or the device passcode."
        case .passkeyNotFound: "This device holds no passkey for this account; sign in another way and create one."
        case .passkeyAlreadyExists: "This device already holds a passkey for this account; sign in with it."
        case .hardwareNotAvailable:
            "Set a device passcode (and biometrics) to use passkeys, or use another device."
        case .challengeExpired, .invalidOrExpiredSession, .registrationAttemptExpired:
            "The sign-in took too long; start again."
        case .recoveryAttemptExpired, .recoveryTokenInvalid, .recoveryPasskeyRegistrationExpired:
            "Ask for a new account recovery."
        case .keyStoreWrongPassphrase: "Enter the passphrase this key store was made with."
        default: nil
        }
    }
}
