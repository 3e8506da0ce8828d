import PasskeyClient
import Testing
import WebAuthn

/// What the Apple platform adapter asks AuthenticationServices for; the adapter itself only copies these values.
@Suite("Apple adapter's request plan")
struct PlatformRequestPlanTests {
    /// Hints, attachment → platform provider, security key provider.
    static let providerCases: [([PublicKeyCredentialHint], AuthenticatorAttachment?, Bool, Bool)] = [
        ([], nil, true, false),
        ([.securityKey], nil, false, true),
        ([.clientDevice], nil, true, false),
        ([.hybrid, .securityKey], nil, true, true),
        ([.securityKey], .platform, true, false),
        // Cross-platform: security keys, and phones through hybrid only when the hint asks for them.
        ([], .crossPlatform, false, true),
        ([.securityKey], .crossPlatform, false, true),
        ([.hybrid], .crossPlatform, true, true),
    ]

    @Test(
        "registration: user verification, attestation and the exclude list are kept; old OS versions check exclusion locally"
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

    @Test("without security keys (visionOS), a request only for security keys has no provider")
    func noSecurityKeys() {
        var options = Fixtures.creationOptions()
        options.authenticatorSelection?.authenticatorAttachment = .crossPlatform
        let plan = PlatformRequestPlan(
            creation: Fixtures.creationRequest(options),
            osSupportsExcludedCredentials: false,
            osSupportsSecurityKeys: false
        )
        #expect(!plan.usesSecurityKeyProvider && !plan.usesPlatformProvider)
        #expect(throws: PasskeyError(.hardwareNotAvailable, "")) { try plan.requireProvider() }
    }

    @Test("security keys get residentKey, or requireResidentKey when it is absent (§5.4.4)")
    func residentKey() {
        let required = PlatformRequestPlan(
            creation: Fixtures.creationRequest(Fixtures.creationOptions(residentKey: .required)),
            osSupportsExcludedCredentials: true
        )
        #expect(required.residentKeyPreference == "required")
        var options = Fixtures.creationOptions(residentKey: nil)
        #expect(
            PlatformRequestPlan(creation: Fixtures.creationRequest(options), osSupportsExcludedCredentials: true)
                .residentKeyPreference == "discouraged"
        )
        options.authenticatorSelection?.requireResidentKey = true
        #expect(
            PlatformRequestPlan(creation: Fixtures.creationRequest(options), osSupportsExcludedCredentials: true)
                .residentKeyPreference == "required"
        )
    }

    @Test("algorithms are offered to security keys in order; without ES256 platform passkeys are not offered")
    func algorithms() {
        let plan = PlatformRequestPlan(
            creation: Fixtures.creationRequest(Fixtures.creationOptions(algorithms: [.es256, .rs256])),
            osSupportsExcludedCredentials: true
        )
        #expect(plan.algorithms == [-7, -257])
        #expect(plan.usesPlatformProvider)
        let rsaOnly = PlatformRequestPlan(
            creation: Fixtures.creationRequest(Fixtures.creationOptions(algorithms: [.rs256])),
            osSupportsExcludedCredentials: true
        )
        #expect(!rsaOnly.usesPlatformProvider)
        #expect(throws: PasskeyError(.hardwareNotAvailable, "")) { try rsaOnly.requireProvider() }
    }

    @Test("each credential keeps its security key transports; other transports mean every transport")
    func transports() {
        var options = Fixtures.requestOptions()
        options.allowCredentials = [
            PublicKeyCredentialDescriptorJSON(id: Base64URLBytes([1]), transports: [.usb, .nfc]),
            PublicKeyCredentialDescriptorJSON(id: Base64URLBytes([2]), transports: [.internal, .hybrid]),
            PublicKeyCredentialDescriptorJSON(id: Base64URLBytes([3])),
            PublicKeyCredentialDescriptorJSON(id: Base64URLBytes([4]), transports: [.ble, .hybrid]),
        ]
        let plan = PlatformRequestPlan(assertion: Fixtures.assertionRequest(options))
        #expect(plan.allowedCredentials.map(\.securityKeyTransports) == [[.usb, .nfc], nil, nil, [.ble]])
    }

    @Test("the extensions asked for are listed as not passed")
    func extensions() {
        let options = Fixtures.creationOptions(extensions: ["credProps": .bool(true), "largeBlob": .object([:])])
        let plan = PlatformRequestPlan(creation: Fixtures.creationRequest(options), osSupportsExcludedCredentials: true)
        #expect(plan.extensionsNotPassed == ["credProps", "largeBlob"])
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
        #expect(plan.residentKeyPreference == nil)
    }
}
