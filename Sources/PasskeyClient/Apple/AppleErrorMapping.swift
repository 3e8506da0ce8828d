/// How the errors of Apple's frameworks become ``PasskeyError``s — by their numeric codes, never by their
/// localized text (which changes with the language and the OS version). Shared, platform-neutral code: the Apple
/// adapters call it, and the tests on Linux check every code.
public enum AppleErrorMapping {
    /// `ASAuthorizationError.Code` (AuthenticationServices): 1000 unknown, 1001 canceled, 1002 invalidResponse,
    /// 1003 notHandled, 1004 failed, 1005 notInteractive, 1006 matchedExcludedCredential, 1007 credentialImport,
    /// 1008 credentialExport.
    public static func authorizationError(code: Int, cause: (any Error & Sendable)? = nil) -> PasskeyError {
        switch code {
        case 1001:
            // Also what the system reports when the user has no passkey for this RP and closes the sheet.
            return PasskeyError(
                .userCancelled,
                "The user closed the passkey sheet (or had no passkey to choose).",
                cause: cause
            )
        case 1004:
            return PasskeyError(
                .relyingPartyMismatch,
                "The system refused the request (ASAuthorizationError 1004). Check the app's Associated Domains entitlement (webcredentials:<rpDomain>) and the apple-app-site-association file the RP domain serves.",
                cause: cause
            )
        case 1005:
            return PasskeyError(
                .passkeyNotFound,
                "No passkey was immediately available without showing the sheet.",
                cause: cause
            )
        case 1006:
            return PasskeyError(
                .passkeyAlreadyExists,
                "This device already has a passkey the server excluded; sign in with it instead.",
                cause: cause
            )
        case 1002:
            return PasskeyError(
                .hardwareNotAvailable,
                "The system's passkey service returned an invalid response (ASAuthorizationError 1002).",
                cause: cause
            )
        case 1003:
            return PasskeyError(
                .hardwareNotAvailable,
                "No passkey provider handled the request (ASAuthorizationError 1003).",
                cause: cause
            )
        default:
            return PasskeyError(
                .hardwareNotAvailable,
                "The system's passkey service failed (ASAuthorizationError \(code)); retry, or update the OS.",
                isRetryable: code == 1000,
                cause: cause
            )
        }
    }

    /// `LAError.Code` (LocalAuthentication): -1 authenticationFailed, -2 userCancel, -3 userFallback,
    /// -4 systemCancel, -5 passcodeNotSet, -6 biometryNotAvailable, -7 biometryNotEnrolled, -8 biometryLockout,
    /// -9 appCancel, -10 invalidContext, -11 biometryNotPaired, -12 biometryDisconnected, -14
    /// companionNotAvailable, -1004 notInteractive.
    public static func localAuthenticationError(code: Int, cause: (any Error & Sendable)? = nil) -> PasskeyError {
        switch code {
        case -1:
            return PasskeyError(
                .userVerificationFailed,
                "The user could not be verified (biometrics or passcode did not match).",
                cause: cause
            )
        case -2, -3:
            return PasskeyError(.userCancelled, "The user cancelled verification.", cause: cause)
        case -4:
            return PasskeyError(
                .userCancelled,
                "The system cancelled verification (another app came to the front); retry.",
                isRetryable: true,
                cause: cause
            )
        case -9:
            return PasskeyError(.cancelled, "The app cancelled verification.", cause: cause)
        case -8:
            return PasskeyError(
                .biometricLockout,
                "Biometrics are locked after too many failed attempts; unlock the device with its passcode, then retry.",
                cause: cause
            )
        case -5:
            return PasskeyError(.hardwareNotAvailable, "No device passcode is set; passkeys need one.", cause: cause)
        case -6, -7, -11, -12, -14:
            return PasskeyError(
                .hardwareNotAvailable,
                "Biometrics are not available or not enrolled on this device (LAError \(code)).",
                cause: cause
            )
        default:
            return PasskeyError(.userVerificationFailed, "User verification failed (LAError \(code)).", cause: cause)
        }
    }
}
