import Foundation

/// How the errors of Apple's frameworks become ``PasskeyError``s: by their domain and numeric code, never by
/// their localized text (which changes with the language and the OS version), and always keeping the error as
/// the ``PasskeyError/cause``. Platform-neutral: the Apple adapters call it, and the tests on Linux check every
/// code.
public enum AppleErrorMapping {
    /// `ASAuthorizationErrorDomain` (AuthenticationServices).
    public static let authorizationErrorDomain = "com.apple.AuthenticationServices.AuthorizationError"
    /// `LAErrorDomain` (LocalAuthentication).
    public static let localAuthenticationErrorDomain = "com.apple.LocalAuthentication"
    /// `WKErrorDomain` (WebKit), in which iOS 17.4–17.x reports a match of `excludedCredentials` (code 8, the
    /// web's `InvalidStateError`); iOS 18 reports `ASAuthorizationError.matchedExcludedCredential` instead.
    public static let webKitErrorDomain = "WKErrorDomain"
    /// The WebKit code for `InvalidStateError`, what a matched `excludedCredentials` entry is on the web.
    static let webKitInvalidStateCode = 8

    /// The error for anything an Apple framework threw or reported to a delegate: a ``PasskeyError`` stays as
    /// it is, a Swift `CancellationError` is `CANCELLED`, and everything else is mapped by its `NSError` domain
    /// and code.
    public static func passkeyError(for error: any Error) -> PasskeyError {
        if let error = error as? PasskeyError { return error }
        if error is CancellationError {
            return PasskeyError(.cancelled, "The ceremony was cancelled before the system answered.", cause: error)
        }
        let nsError = error as NSError
        let underlying = (nsError.userInfo[NSUnderlyingErrorKey] as? NSError).map { (domain: $0.domain, code: $0.code) }
        return passkeyError(domain: nsError.domain, code: nsError.code, underlying: underlying, cause: error)
    }

    /// The error for a domain and code. `underlying` is the domain and code of the error's
    /// `NSUnderlyingErrorKey`: a generic `ASAuthorizationError.failed` whose underlying error is a matched
    /// exclusion is reported as such.
    public static func passkeyError(
        domain: String,
        code: Int,
        underlying: (domain: String, code: Int)? = nil,
        cause: (any Error)? = nil
    ) -> PasskeyError {
        switch domain {
        case authorizationErrorDomain:
            if code == 1004, let underlying, isMatchedExclusion(domain: underlying.domain, code: underlying.code) {
                return matchedExclusion(cause: cause)
            }
            return authorizationError(code: code, cause: cause)
        case localAuthenticationErrorDomain:
            return localAuthenticationError(code: code, cause: cause)
        case _ where isMatchedExclusion(domain: domain, code: code):
            return matchedExclusion(cause: cause)
        default:
            return PasskeyError(
                .hardwareNotAvailable,
                "The system failed with an error this SDK does not know (\(domain) \(code)); its cause is attached.",
                cause: cause
            )
        }
    }

    static func isMatchedExclusion(domain: String, code: Int) -> Bool {
        domain == webKitErrorDomain && code == webKitInvalidStateCode
    }

    static func matchedExclusion(cause: (any Error)?) -> PasskeyError {
        PasskeyError(
            .passkeyAlreadyExists,
            "This device already has a passkey the server excluded; sign in with it instead.",
            cause: cause
        )
    }
}
