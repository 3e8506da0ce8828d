// Apple platforms only (AuthenticationServices); type-checked on Linux against stand-in declarations
// (scripts/typecheck-apple.sh). Each value set here comes from `PlatformRequestPlan`.
#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
import AuthenticationServices
import Foundation
import WebAuthn

@available(iOS 17.0, macOS 14.0, visionOS 1.0, *)
extension PlatformPasskeyAuthenticator {
    static func registrationRequests(
        _ request: CredentialCreationRequest,
        plan: PlatformRequestPlan
    ) -> [ASAuthorizationRequest] {
        let options = request.options
        let challenge = Data(options.challenge.bytes)
        let userID = Data(options.user.id.bytes)
        var requests: [ASAuthorizationRequest] = []
        if plan.usesPlatformProvider {
            let registration = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.rpID)
                .createCredentialRegistrationRequest(challenge: challenge, name: options.user.name, userID: userID)
            registration.displayName = options.user.displayName
            registration.userVerificationPreference = .init(rawValue: plan.userVerificationPreference)
            registration.attestationPreference = .init(rawValue: plan.attestationPreference ?? "none")
            #if !os(visionOS)
            if #available(iOS 17.4, *), !plan.excludedCredentials.isEmpty {
                registration.excludedCredentials = plan.excludedCredentials.map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: Data($0.id))
                }
            }
            #endif
            requests.append(registration)
        }
        #if !os(visionOS)
        if plan.usesSecurityKeyProvider {
            let provider = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: request.rpID)
            let registration = provider.createCredentialRegistrationRequest(
                challenge: challenge,
                displayName: options.user.displayName,
                name: options.user.name,
                userID: userID
            )
            registration.userVerificationPreference = .init(rawValue: plan.userVerificationPreference)
            registration.attestationPreference = .init(rawValue: plan.attestationPreference ?? "none")
            registration.residentKeyPreference = .init(rawValue: plan.residentKeyPreference ?? "discouraged")
            registration.credentialParameters = plan.algorithms.map {
                ASAuthorizationPublicKeyCredentialParameters(algorithm: ASCOSEAlgorithmIdentifier(rawValue: $0))
            }
            registration.excludedCredentials = plan.excludedCredentials.map(securityKeyDescriptor)
            requests.append(registration)
        }
        #endif
        return requests
    }

    static func assertionRequests(
        _ request: CredentialAssertionRequest,
        plan: PlatformRequestPlan
    ) -> [ASAuthorizationRequest] {
        let challenge = Data(request.options.challenge.bytes)
        var requests: [ASAuthorizationRequest] = []
        if plan.usesPlatformProvider {
            let assertion = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.rpID)
                .createCredentialAssertionRequest(challenge: challenge)
            assertion.userVerificationPreference = .init(rawValue: plan.userVerificationPreference)
            assertion.allowedCredentials = plan.allowedCredentials.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: Data($0.id))
            }
            requests.append(assertion)
        }
        #if !os(visionOS)
        if plan.usesSecurityKeyProvider {
            let assertion = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: request.rpID)
                .createCredentialAssertionRequest(challenge: challenge)
            assertion.userVerificationPreference = .init(rawValue: plan.userVerificationPreference)
            assertion.allowedCredentials = plan.allowedCredentials.map(securityKeyDescriptor)
            requests.append(assertion)
        }
        #endif
        return requests
    }

    #if !os(visionOS)
    /// A security key descriptor with the transports the relying party named, or every one the system supports.
    private static func securityKeyDescriptor(
        _ descriptor: PlatformRequestPlan.CredentialDescriptor
    ) -> ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor {
        typealias Transport = ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport
        let transports = descriptor.securityKeyTransports?.map { Transport(rawValue: $0.rawValue) }
        return ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor(
            credentialID: Data(descriptor.id),
            transports: transports ?? Transport.allSupported
        )
    }
    #endif
}
#endif
