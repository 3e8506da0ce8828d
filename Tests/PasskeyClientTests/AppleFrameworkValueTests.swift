#if canImport(AuthenticationServices) && canImport(LocalAuthentication)
import AuthenticationServices
import LocalAuthentication
import Testing

/// The numbers in ``AppleMappingTests``' tables are copied from Apple's headers, as the SDK's are: here, where
/// the frameworks exist, they are checked against the frameworks themselves, so a copy cannot agree with a wrong
/// original.
@Suite("Apple's error values, from the frameworks")
struct AppleFrameworkValueTests {
    @Test("ASAuthorizationError codes are the frameworks' values")
    func authorizationCodes() {
        let framework: [String: Int] = [
            "unknown": ASAuthorizationError.Code.unknown.rawValue,
            "canceled": ASAuthorizationError.Code.canceled.rawValue,
            "invalidResponse": ASAuthorizationError.Code.invalidResponse.rawValue,
            "notHandled": ASAuthorizationError.Code.notHandled.rawValue,
            "failed": ASAuthorizationError.Code.failed.rawValue,
            "notInteractive": ASAuthorizationError.Code.notInteractive.rawValue,
        ]
        for (name, code, _) in AppleMappingTests.authorizationCodes {
            guard let value = framework[name] else { continue }
            #expect(value == code, "\(name)")
        }
        #expect(ASAuthorizationError.errorDomain == AppleMappingTests.authorizationDomain)
    }

    @Test("LAError codes are the framework's values")
    func localAuthenticationCodes() {
        let framework: [String: Int] = [
            "authenticationFailed": LAError.Code.authenticationFailed.rawValue,
            "userCancel": LAError.Code.userCancel.rawValue, "userFallback": LAError.Code.userFallback.rawValue,
            "systemCancel": LAError.Code.systemCancel.rawValue, "passcodeNotSet": LAError.Code.passcodeNotSet.rawValue,
            "biometryNotAvailable": LAError.Code.biometryNotAvailable.rawValue,
            "biometryNotEnrolled": LAError.Code.biometryNotEnrolled.rawValue,
            "biometryLockout": LAError.Code.biometryLockout.rawValue, "appCancel": LAError.Code.appCancel.rawValue,
            "invalidContext": LAError.Code.invalidContext.rawValue,
            "notInteractive": LAError.Code.notInteractive.rawValue,
        ]
        for (name, code, _) in AppleMappingTests.localAuthenticationCodes {
            guard let value = framework[name] else { continue }
            #expect(value == code, "\(name)")
        }
        #expect(LAError.errorDomain == AppleMappingTests.localAuthenticationDomain)
    }
}
#endif
