extension AppleErrorMapping {
    /// `LAError.Code` (LocalAuthentication), as `LAPublicDefines.h` defines them.
    public enum LocalAuthenticationCode {
        public static let authenticationFailed = -1
        public static let userCancel = -2
        public static let userFallback = -3
        public static let systemCancel = -4
        public static let passcodeNotSet = -5
        public static let biometryNotAvailable = -6
        public static let biometryNotEnrolled = -7
        public static let biometryLockout = -8
        public static let appCancel = -9
        public static let invalidContext = -10
        public static let companionNotAvailable = -11
        public static let biometryNotPaired = -12
        public static let biometryDisconnected = -13
        public static let invalidDimensions = -14
        public static let notInteractive = -1004
    }

    /// The error for an `LAError` code.
    public static func localAuthenticationError(code: Int, cause: (any Error)? = nil) -> PasskeyError {
        typealias Code = LocalAuthenticationCode
        switch code {
        case Code.authenticationFailed:
            return PasskeyError(
                .userVerificationFailed,
                "The user could not be verified (biometrics or passcode did not match).",
                cause: cause
            )
        case Code.userCancel, Code.userFallback:
            return PasskeyError(.userCancelled, "The user cancelled verification.", cause: cause)
        case Code.systemCancel:
            return PasskeyError(
                .userCancelled,
                "The system cancelled verification (another app came to the front); retry.",
                isRetryable: true,
                cause: cause
            )
        case Code.appCancel:
            return PasskeyError(.cancelled, "The app cancelled verification.", cause: cause)
        case Code.biometryLockout:
            return PasskeyError(
                .biometricLockout,
                "Biometrics are locked after too many failed attempts; unlock the device with its passcode, then retry.",
                cause: cause
            )
        case Code.passcodeNotSet:
            return PasskeyError(.hardwareNotAvailable, "No device passcode is set; passkeys need one.", cause: cause)
        case Code.biometryNotAvailable, Code.biometryNotEnrolled:
            return PasskeyError(
                .hardwareNotAvailable,
                "Biometrics are not available or not enrolled on this device (LAError \(code)).",
                cause: cause
            )
        case Code.companionNotAvailable, Code.biometryNotPaired, Code.biometryDisconnected:
            return PasskeyError(
                .hardwareNotAvailable,
                "The device that verifies the user (a paired Apple Watch, or a keyboard with Touch ID) is not available (LAError \(code)).",
                cause: cause
            )
        default:
            // invalidContext, invalidDimensions and notInteractive are the app's own mistakes; unknown codes too.
            return PasskeyError(.userVerificationFailed, "User verification failed (LAError \(code)).", cause: cause)
        }
    }
}
