extension AppleErrorMapping {
    /// `ASAuthorizationError.Code` (AuthenticationServices), written out: 1000 unknown, 1001 canceled,
    /// 1002 invalidResponse, 1003 notHandled, 1004 failed, 1005 notInteractive, 1006 matchedExcludedCredential
    /// (iOS 18), 1007 credentialImport, 1008 credentialExport.
    public enum AuthorizationCode {
        public static let unknown = 1000
        public static let canceled = 1001
        public static let invalidResponse = 1002
        public static let notHandled = 1003
        public static let failed = 1004
        public static let notInteractive = 1005
        public static let matchedExcludedCredential = 1006
    }

    /// The error for an `ASAuthorizationError` code.
    public static func authorizationError(code: Int, cause: (any Error)? = nil) -> PasskeyError {
        switch code {
        case AuthorizationCode.canceled:
            // Also what the system reports when the user has no passkey for this RP and closes the sheet.
            return PasskeyError(
                .userCancelled,
                "The user closed the passkey sheet (or had no passkey to choose).",
                cause: cause
            )
        case AuthorizationCode.failed:
            return PasskeyError(
                .relyingPartyMismatch,
                "The system refused the request (ASAuthorizationError 1004). Check the app's Associated Domains entitlement (webcredentials:<rpDomain>) and the apple-app-site-association file the RP domain serves; the cause says more.",
                cause: cause
            )
        case AuthorizationCode.notInteractive:
            return PasskeyError(
                .passkeyNotFound,
                "No passkey was immediately available without showing the sheet.",
                cause: cause
            )
        case AuthorizationCode.matchedExcludedCredential:
            return matchedExclusion(cause: cause)
        case AuthorizationCode.invalidResponse:
            return PasskeyError(
                .hardwareNotAvailable,
                "The system's passkey service returned an invalid response (ASAuthorizationError 1002).",
                cause: cause
            )
        case AuthorizationCode.notHandled:
            return PasskeyError(
                .hardwareNotAvailable,
                "No passkey provider handled the request (ASAuthorizationError 1003).",
                cause: cause
            )
        default:
            return PasskeyError(
                .hardwareNotAvailable,
                "The system's passkey service failed (ASAuthorizationError \(code)); retry, or update the OS.",
                isRetryable: code == AuthorizationCode.unknown,
                cause: cause
            )
        }
    }
}
