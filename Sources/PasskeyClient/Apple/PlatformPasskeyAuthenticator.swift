// Apple platforms only. This file is compiled where AuthenticationServices exists (iOS, macOS, visionOS); our CI
// runs on Linux and cannot compile it. It is kept thin on purpose: the decisions it makes come from
// `PlatformRequestPlan` and `AppleErrorMapping`, which are platform-neutral and tested on Linux.
#if canImport(AuthenticationServices)
public import AuthenticationServices
import Foundation
public import WebAuthn

/// Platform passkeys (iCloud Keychain and the user's passkey provider, phones through hybrid, and security keys
/// when the options hint at them) through AuthenticationServices.
///
/// The system builds `clientDataJSON` with the origin `https://<rpID>`; the app needs the Associated Domains
/// entitlement `webcredentials:<rpDomain>`. Platform passkeys cannot be listed or deleted by an app: this adapter
/// records the passkeys it creates in `registry` (metadata only) to list them, and `deleteCredential` fails with
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

    public func isSupported() async -> Bool { true }

    public func makeCredential(
        _ request: CredentialCreationRequest
    ) async throws(PasskeyError) -> RegistrationResponseJSON {
        let options = request.options
        var supportsExclusion = false
        if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) { supportsExclusion = true }
        let plan = PlatformRequestPlan(creation: request, osSupportsExcludedCredentials: supportsExclusion)
        if plan.checksExclusionLocally {
            let excluded = Set(plan.excludedCredentialIDs)
            if try await registry.entries().contains(where: { excluded.contains($0.credentialId.bytes) }) {
                throw AppleErrorMapping.authorizationError(code: 1006)
            }
        }
        let challenge = Data(options.challenge.bytes)
        var requests: [ASAuthorizationRequest] = []
        if plan.usesPlatformProvider {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.rpID)
            let registration = provider.createCredentialRegistrationRequest(
                challenge: challenge,
                name: options.user.name,
                userID: Data(options.user.id.bytes)
            )
            registration.displayName = options.user.displayName
            registration.userVerificationPreference = .init(rawValue: plan.userVerificationPreference)
            registration.attestationPreference = .init(rawValue: plan.attestationPreference ?? "none")
            if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
                registration.excludedCredentials = plan.excludedCredentialIDs.map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: Data($0))
                }
            }
            requests.append(registration)
        }
        if plan.usesSecurityKeyProvider {
            let provider = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: request.rpID)
            let registration = provider.createCredentialRegistrationRequest(
                challenge: challenge,
                displayName: options.user.displayName,
                name: options.user.name,
                userID: Data(options.user.id.bytes)
            )
            registration.userVerificationPreference = .init(rawValue: plan.userVerificationPreference)
            registration.attestationPreference = .init(rawValue: plan.attestationPreference ?? "none")
            registration.credentialParameters = options.pubKeyCredParams.map {
                ASAuthorizationPublicKeyCredentialParameters(
                    algorithm: ASCOSEAlgorithmIdentifier(rawValue: $0.alg.rawValue)
                )
            }
            registration.excludedCredentials = plan.excludedCredentialIDs.map {
                ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor(
                    credentialID: Data($0),
                    transports: ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.allSupported
                )
            }
            requests.append(registration)
        }
        let credential = try await AuthorizationRunner.perform(requests, anchor: anchor).credential
        guard let registration = credential as? any ASAuthorizationPublicKeyCredentialRegistration,
            let attestationObject = registration.rawAttestationObject
        else {
            throw AppleErrorMapping.authorizationError(code: 1002)
        }
        let id = Array(registration.credentialID)
        let attachment: AuthenticatorAttachment =
            credential is ASAuthorizationPlatformPublicKeyCredentialRegistration ? .platform : .crossPlatform
        let entry = KeyStoreEntry(
            credentialId: Base64URLBytes(id),
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
        return RegistrationResponseJSON(
            id: Base64URL.encode(id),
            rawId: Base64URLBytes(id),
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URLBytes(Array(registration.rawClientDataJSON)),
                attestationObject: Base64URLBytes(Array(attestationObject)),
                transports: attachment == .platform ? [.internal, .hybrid] : nil
            ),
            authenticatorAttachment: attachment
        )
    }

    public func getAssertion(
        _ request: CredentialAssertionRequest
    ) async throws(PasskeyError) -> AuthenticationResponseJSON {
        let options = request.options
        let plan = PlatformRequestPlan(assertion: request)
        let challenge = Data(options.challenge.bytes)
        var requests: [ASAuthorizationRequest] = []
        if plan.usesPlatformProvider {
            let assertion = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.rpID)
                .createCredentialAssertionRequest(challenge: challenge)
            assertion.userVerificationPreference = .init(rawValue: plan.userVerificationPreference)
            assertion.allowedCredentials = plan.allowedCredentialIDs.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: Data($0))
            }
            requests.append(assertion)
        }
        if plan.usesSecurityKeyProvider {
            let assertion = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: request.rpID)
                .createCredentialAssertionRequest(challenge: challenge)
            assertion.userVerificationPreference = .init(rawValue: plan.userVerificationPreference)
            assertion.allowedCredentials = plan.allowedCredentialIDs.map {
                ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor(
                    credentialID: Data($0),
                    transports: ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.allSupported
                )
            }
            requests.append(assertion)
        }
        let credential = try await AuthorizationRunner.perform(requests, anchor: anchor).credential
        guard let assertion = credential as? any ASAuthorizationPublicKeyCredentialAssertion else {
            throw AppleErrorMapping.authorizationError(code: 1002)
        }
        let id = Array(assertion.credentialID)
        let time = Date()
        try await registry.update { entries throws(PasskeyError) in
            if let index = entries.firstIndex(where: { $0.credentialId.bytes == id }) {
                entries[index].lastUsedAt = time
            }
        }
        return AuthenticationResponseJSON(
            id: Base64URL.encode(id),
            rawId: Base64URLBytes(id),
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URLBytes(Array(assertion.rawClientDataJSON)),
                authenticatorData: Base64URLBytes(Array(assertion.rawAuthenticatorData)),
                signature: Base64URLBytes(Array(assertion.signature)),
                userHandle: assertion.userID.isEmpty ? nil : Base64URLBytes(Array(assertion.userID))
            ),
            authenticatorAttachment: credential is ASAuthorizationPlatformPublicKeyCredentialAssertion
                ? .platform : .crossPlatform
        )
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
}

/// Runs an `ASAuthorizationController` and awaits its outcome.
@MainActor
final class AuthorizationRunner: NSObject {
    private var continuation: CheckedContinuation<ASAuthorization, any Error>?
    private let anchor: ASPresentationAnchor

    private init(anchor: ASPresentationAnchor) { self.anchor = anchor }

    static func perform(
        _ requests: [ASAuthorizationRequest],
        anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
    ) async throws(PasskeyError) -> ASAuthorization {
        do {
            return try await Self.run(requests, anchor: anchor)
        } catch let error as ASAuthorizationError {
            throw AppleErrorMapping.authorizationError(code: error.code.rawValue, cause: error)
        } catch {
            throw AppleErrorMapping.authorizationError(code: (error as NSError).code)
        }
    }

    private static func run(
        _ requests: [ASAuthorizationRequest],
        anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
    ) async throws -> ASAuthorization {
        let runner = AuthorizationRunner(anchor: anchor())
        let controller = ASAuthorizationController(authorizationRequests: requests)
        controller.delegate = runner
        controller.presentationContextProvider = runner
        return try await withCheckedThrowingContinuation { continuation in
            runner.continuation = continuation
            controller.performRequests()
        }
    }

    fileprivate func finish(_ result: Result<ASAuthorization, any Error>) {
        continuation?.resume(with: result)
        continuation = nil
    }
}

extension AuthorizationRunner: @preconcurrency ASAuthorizationControllerDelegate {
    func authorizationController(
        controller: ASAuthorizationController,
        didCompleteWithAuthorization authorization: ASAuthorization
    ) {
        finish(.success(authorization))
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        finish(.failure(error))
    }
}

extension AuthorizationRunner: @preconcurrency ASAuthorizationControllerPresentationContextProviding {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor }
}
#endif
