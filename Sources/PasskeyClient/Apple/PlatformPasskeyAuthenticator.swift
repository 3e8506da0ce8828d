// Apple platforms only (AuthenticationServices: iOS, macOS and visionOS; security keys not on visionOS). Our CI
// type-checks it on Linux against stand-in declarations (scripts/typecheck-apple.sh) but cannot run it. Thin on
// purpose: its decisions come from `PlatformRequestPlan`, `PlatformCredential`, `SystemPrompt` and
// `AppleErrorMapping`, which are platform-neutral and tested on Linux.
#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
public import AuthenticationServices
import Foundation
public import WebAuthn

/// Platform passkeys (iCloud Keychain and the user's passkey provider, phones through hybrid, and security keys
/// when the options ask for them) through AuthenticationServices.
///
/// The system builds `clientDataJSON` with the origin `https://<rpID>`; the app needs the Associated Domains
/// entitlement `webcredentials:<rpDomain>`. Platform passkeys cannot be listed or deleted by an app: this adapter
/// records the passkeys it creates — and synced ones the user signs in with here — in `registry` (metadata only) to
/// list them, and `deleteCredential` fails with
/// `CREDENTIAL_DELETE_FORBIDDEN` (the user removes them in Settings › Passwords; revoke them on the server).
@available(iOS 17.0, macOS 14.0, visionOS 1.0, *)
public struct PlatformPasskeyAuthenticator: Authenticator {
    public let registry: any KeyStore
    let anchor: @MainActor @Sendable () -> ASPresentationAnchor

    /// - Parameters:
    ///   - registry: where the passkeys made here are recorded (no key material is stored).
    ///   - presentationAnchor: the window the passkey sheet is shown over.
    public init(registry: any KeyStore, presentationAnchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
        self.registry = registry
        self.anchor = presentationAnchor
    }

    /// Whether the system can verify the user here (a device passcode is set; LocalAuthentication's
    /// `canEvaluatePolicy(.deviceOwnerAuthentication)`): platform passkeys need it.
    public func isSupported() async -> Bool { LocalAuthenticationVerifier.canVerifyUser() }

    public func makeCredential(
        _ request: CredentialCreationRequest
    ) async throws(PasskeyError) -> RegistrationResponseJSON {
        let plan = PlatformRequestPlan(
            creation: request,
            osSupportsExcludedCredentials: Self.osSupportsExcludedCredentials,
            osSupportsSecurityKeys: Self.osSupportsSecurityKeys
        )
        try plan.requireProvider()
        if plan.checksExclusionLocally {
            let excluded = Set(plan.excludedCredentialIDs)
            if try await registry.entries().contains(where: { excluded.contains($0.credentialId.bytes) }) {
                throw AppleErrorMapping.authorizationError(
                    code: AppleErrorMapping.AuthorizationCode.matchedExcludedCredential
                )
            }
        }
        let credential = try await AuthorizationRunner.perform(
            Self.registrationRequests(request, plan: plan),
            anchor: anchor
        )
        let response = try credential.registrationResponse()
        let options = request.options
        let entry = KeyStoreEntry(
            credentialId: Base64URLBytes(credential.id),
            key: [],
            rpId: request.rpID,
            userHandle: options.user.id,
            userName: options.user.name,
            userDisplayName: options.user.displayName,
            userId: request.userId,
            discoverable: true,
            signCount: 0,
            backupEligible: false,
            backupState: false,
            createdAt: Date()
        )
        try await registry.update { entries throws(PasskeyError) in entries.append(entry) }
        return response
    }

    public func getAssertion(
        _ request: CredentialAssertionRequest
    ) async throws(PasskeyError) -> AuthenticationResponseJSON {
        let plan = PlatformRequestPlan(assertion: request, osSupportsSecurityKeys: Self.osSupportsSecurityKeys)
        try plan.requireProvider()
        let credential = try await AuthorizationRunner.perform(
            Self.assertionRequests(request, plan: plan),
            anchor: anchor
        )
        let response = try credential.authenticationResponse()
        let (time, rpID) = (Date(), request.rpID)
        try await registry.update { entries throws(PasskeyError) in
            credential.recordUse(in: &entries, rpID: rpID, at: time)
        }
        return response
    }

    public func credentials(rpDomain: String?) async throws(PasskeyError) -> [Credential] {
        try await registry.entries().filter { rpDomain == nil || $0.rpId == rpDomain }.map(\.credential)
    }

    public func deleteCredential(id: String) async throws(PasskeyError) {
        throw PasskeyError(
            .credentialDeleteForbidden,
            "Platform passkeys are removed by the user in Settings › Passwords; revoke this one on the server through your backend."
        )
    }

    /// The platform request takes `excludedCredentials` from iOS 17.4 (macOS 13.5, below our minimum); not on
    /// visionOS.
    static var osSupportsExcludedCredentials: Bool {
        #if os(visionOS)
        return false
        #else
        if #available(iOS 17.4, *) { return true }
        return false
        #endif
    }

    /// The security key provider exists on iOS and macOS, not on visionOS.
    static var osSupportsSecurityKeys: Bool {
        #if os(visionOS)
        return false
        #else
        return true
        #endif
    }
}
#endif
