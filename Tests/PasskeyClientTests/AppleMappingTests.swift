import Foundation
import PasskeyClient
import Testing

/// Apple's error codes, written out here from Apple's documented constants (not from the SDK's source), and the
/// ``PasskeyError`` codes they must map to.
@Suite("Apple adapters' error mapping")
struct AppleMappingTests {
    static let authorizationDomain = "com.apple.AuthenticationServices.AuthorizationError"
    static let localAuthenticationDomain = "com.apple.LocalAuthentication"

    /// `ASAuthorizationError.Code`.
    static let authorizationCodes: [(String, Int, PasskeyError.Code)] = [
        ("unknown", 1000, .hardwareNotAvailable),
        ("canceled", 1001, .userCancelled),
        ("invalidResponse", 1002, .hardwareNotAvailable),
        ("notHandled", 1003, .hardwareNotAvailable),
        ("failed", 1004, .relyingPartyMismatch),
        ("notInteractive", 1005, .passkeyNotFound),
        ("matchedExcludedCredential", 1006, .passkeyAlreadyExists),
        ("credentialImport", 1007, .hardwareNotAvailable),
        ("credentialExport", 1008, .hardwareNotAvailable),
        ("a code from a newer OS", 4242, .hardwareNotAvailable),
    ]

    /// `LAError.Code` (`LAPublicDefines.h`).
    static let localAuthenticationCodes: [(String, Int, PasskeyError.Code)] = [
        ("authenticationFailed", -1, .userVerificationFailed),
        ("userCancel", -2, .userCancelled),
        ("userFallback", -3, .userCancelled),
        ("systemCancel", -4, .userCancelled),
        ("passcodeNotSet", -5, .hardwareNotAvailable),
        ("biometryNotAvailable", -6, .hardwareNotAvailable),
        ("biometryNotEnrolled", -7, .hardwareNotAvailable),
        ("biometryLockout", -8, .biometricLockout),
        ("appCancel", -9, .cancelled),
        ("invalidContext", -10, .userVerificationFailed),
        ("companionNotAvailable", -11, .hardwareNotAvailable),
        ("biometryNotPaired", -12, .hardwareNotAvailable),
        ("biometryDisconnected", -13, .hardwareNotAvailable),
        ("invalidDimensions", -14, .userVerificationFailed),
        ("notInteractive", -1004, .userVerificationFailed),
    ]

    @Test("a biometric lockout is retryable: once the passcode unlocked biometrics, the same call succeeds")
    func lockoutIsRetryable() {
        let mapped = AppleErrorMapping.localAuthenticationError(
            code: AppleErrorMapping.LocalAuthenticationCode.biometryLockout
        )
        #expect(mapped.code == .biometricLockout)
        #expect(mapped.isRetryable)
        #expect(PasskeyError(.biometricLockout, "locked").isRetryable)
    }

    @Test("ASAuthorizationError codes map by domain and code", arguments: authorizationCodes)
    func authorizationErrors(name: String, code: Int, expected: PasskeyError.Code) {
        let error = NSError(domain: Self.authorizationDomain, code: code)
        let mapped = AppleErrorMapping.passkeyError(for: error)
        #expect(mapped.code == expected, "\(name) (\(code))")
        #expect((mapped.cause as? NSError)?.code == code, "the cause is kept")
    }

    @Test("LAError codes map by domain and code", arguments: localAuthenticationCodes)
    func localAuthenticationErrors(name: String, code: Int, expected: PasskeyError.Code) {
        let mapped = AppleErrorMapping.passkeyError(for: NSError(domain: Self.localAuthenticationDomain, code: code))
        #expect(mapped.code == expected, "\(name) (\(code))")
        #expect(mapped.cause != nil)
    }

    @Test("the SDK's named LAError codes are Apple's values")
    func localAuthenticationConstants() {
        typealias Code = AppleErrorMapping.LocalAuthenticationCode
        let named = [
            Code.authenticationFailed, Code.userCancel, Code.userFallback, Code.systemCancel, Code.passcodeNotSet,
            Code.biometryNotAvailable, Code.biometryNotEnrolled, Code.biometryLockout, Code.appCancel,
            Code.invalidContext, Code.companionNotAvailable, Code.biometryNotPaired, Code.biometryDisconnected,
            Code.invalidDimensions, Code.notInteractive,
        ]
        #expect(named == Self.localAuthenticationCodes.map(\.1))
    }

    @Test("the SDK's domains are Apple's")
    func domains() {
        #expect(AppleErrorMapping.authorizationErrorDomain == Self.authorizationDomain)
        #expect(AppleErrorMapping.localAuthenticationErrorDomain == Self.localAuthenticationDomain)
        #expect(AppleErrorMapping.webKitErrorDomain == "WKErrorDomain")
    }

    @Test("a code is never looked up in another domain's table")
    func domainDecides() {
        // 1006 outside AuthenticationServices, and -8 outside LocalAuthentication, mean nothing to the SDK.
        #expect(AppleErrorMapping.passkeyError(domain: "NSCocoaErrorDomain", code: 1006).code == .hardwareNotAvailable)
        #expect(AppleErrorMapping.passkeyError(domain: Self.authorizationDomain, code: -8).code != .biometricLockout)
        #expect(
            AppleErrorMapping.passkeyError(domain: Self.localAuthenticationDomain, code: 1001).code != .userCancelled
        )
    }

    @Test("an error of an unknown domain keeps its cause, domain and code")
    func unknownDomain() {
        let error = NSError(domain: "com.example.SomethingElse", code: 77)
        let mapped = AppleErrorMapping.passkeyError(for: error)
        #expect(mapped.code == .hardwareNotAvailable)
        #expect((mapped.cause as? NSError)?.domain == "com.example.SomethingElse")
        #expect(mapped.message.contains("com.example.SomethingElse 77"))
    }

    @Test("iOS 17.4–17.x: a matched exclusion arrives as WebKit's InvalidStateError (WKErrorDomain 8)")
    func matchedExclusionBeforeIOS18() {
        let error = NSError(domain: "WKErrorDomain", code: 8)
        let mapped = AppleErrorMapping.passkeyError(for: error)
        #expect(mapped.code == .passkeyAlreadyExists)
        #expect((mapped.cause as? NSError)?.domain == "WKErrorDomain")
        // Other WebKit codes are not exclusions.
        #expect(AppleErrorMapping.passkeyError(domain: "WKErrorDomain", code: 31).code == .hardwareNotAvailable)
    }

    @Test("a generic ASAuthorizationError.failed whose underlying error is a matched exclusion is one")
    func matchedExclusionUnderneath() {
        let underlying = NSError(domain: "WKErrorDomain", code: 8)
        let error = NSError(domain: Self.authorizationDomain, code: 1004, userInfo: [NSUnderlyingErrorKey: underlying])
        #expect(AppleErrorMapping.passkeyError(for: error).code == .passkeyAlreadyExists)
        #expect(
            AppleErrorMapping.passkeyError(for: NSError(domain: Self.authorizationDomain, code: 1004)).code
                == .relyingPartyMismatch
        )
    }

    @Test("a PasskeyError stays as it is; a Swift cancellation is CANCELLED")
    func passThrough() {
        let error = PasskeyError(.passkeyNotFound, "none here")
        #expect(AppleErrorMapping.passkeyError(for: error).message == "none here")
        #expect(AppleErrorMapping.passkeyError(for: CancellationError()).code == .cancelled)
    }
}
