import PasskeyClient
import Testing
import WebAuthn

/// The Apple adapters cannot be compiled on Linux; the decisions they make are made here and tested.
@Suite("Apple adapters' shared logic")
struct AppleMappingTests {
    static let authorizationCodes: [(Int, PasskeyError.Code)] = [
        (1000, .hardwareNotAvailable), (1001, .userCancelled), (1002, .hardwareNotAvailable),
        (1003, .hardwareNotAvailable),
        (1004, .relyingPartyMismatch), (1005, .passkeyNotFound), (1006, .passkeyAlreadyExists),
        (1007, .hardwareNotAvailable),
        (1008, .hardwareNotAvailable), (4242, .hardwareNotAvailable),
    ]

    static let localAuthenticationCodes: [(Int, PasskeyError.Code)] = [
        (-1, .userVerificationFailed), (-2, .userCancelled), (-3, .userCancelled),
        (-4, .userCancelled), (-5, .hardwareNotAvailable),
        (-6, .hardwareNotAvailable), (-7, .hardwareNotAvailable), (-8, .biometricLockout), (-9, .cancelled),
        (-10, .userVerificationFailed),
        (-11, .hardwareNotAvailable), (-12, .hardwareNotAvailable), (-14, .hardwareNotAvailable),
        (-1004, .userVerificationFailed),
    ]

    static let providerCases: [([PublicKeyCredentialHint], AuthenticatorAttachment?, Bool, Bool)] = [
        ([], nil, true, false),
        ([.securityKey], nil, false, true),
        ([.clientDevice], nil, true, false), ([.hybrid, .securityKey], nil, true, true),
        ([.securityKey], .platform, true, false),
        ([], .crossPlatform, true, true), ([.securityKey], .crossPlatform, false, true),
    ]

    @Test("ASAuthorizationError codes map by code", arguments: authorizationCodes)
    func authorizationErrors(code: Int, expected: PasskeyError.Code) {
        #expect(AppleErrorMapping.authorizationError(code: code).code == expected)
    }

    @Test("LAError codes map by code", arguments: localAuthenticationCodes)
    func localAuthenticationErrors(code: Int, expected: PasskeyError.Code) {
        #expect(AppleErrorMapping.localAuthenticationError(code: code).code == expected)
    }

    @Test(
        "registration plan: user verification, attestation and the exclude list are kept; old OS versions check exclusion locally"
    )
    func creationPlan() {
        var options = Fixtures.creationOptions(
            attestation: .direct,
            userVerification: .required,
            exclude: [[1, 2], [3, 4]]
        )
        options.hints = [.securityKey, .clientDevice]
        let request = Fixtures.creationRequest(options)
        let plan = PlatformRequestPlan(creation: request, osSupportsExcludedCredentials: true)
        #expect(plan.userVerificationPreference == "required")
        #expect(plan.attestationPreference == "direct")
        #expect(plan.excludedCredentialIDs == [[1, 2], [3, 4]])
        #expect(!plan.checksExclusionLocally)
        #expect(plan.usesPlatformProvider && plan.usesSecurityKeyProvider)
        #expect(PlatformRequestPlan(creation: request, osSupportsExcludedCredentials: false).checksExclusionLocally)
    }

    @Test("providers follow hints and attachment", arguments: providerCases)
    func providers(
        hints: [PublicKeyCredentialHint],
        attachment: AuthenticatorAttachment?,
        platform: Bool,
        securityKey: Bool
    ) {
        var options = Fixtures.creationOptions()
        options.hints = hints
        options.authenticatorSelection?.authenticatorAttachment = attachment
        let plan = PlatformRequestPlan(creation: Fixtures.creationRequest(options), osSupportsExcludedCredentials: true)
        #expect(plan.usesPlatformProvider == platform)
        #expect(plan.usesSecurityKeyProvider == securityKey)
    }

    @Test("assertion plan keeps allowCredentials and user verification")
    func assertionPlan() {
        let plan = PlatformRequestPlan(
            assertion: Fixtures.assertionRequest(
                Fixtures.requestOptions(allow: [[5, 6]], userVerification: .discouraged)
            )
        )
        #expect(plan.allowedCredentialIDs == [[5, 6]])
        #expect(plan.userVerificationPreference == "discouraged")
        #expect(plan.attestationPreference == nil)
    }
}
