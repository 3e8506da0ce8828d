// Apple platforms only (AuthenticationServices); type-checked on Linux against stand-in declarations
// (scripts/typecheck-apple.sh).
#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
import AuthenticationServices
import Foundation
import WebAuthn

extension PlatformCredential {
    /// Reads the credential of an authorization (on the main actor, where the delegate receives it).
    @MainActor
    init(_ authorization: ASAuthorization) throws(PasskeyError) {
        let credential = authorization.credential
        let source = try Self.source(of: credential)
        if let registration = credential as? any ASAuthorizationPublicKeyCredentialRegistration {
            self.init(
                id: Array(registration.credentialID),
                clientDataJSON: Array(registration.rawClientDataJSON),
                attestationObject: registration.rawAttestationObject.map { Array($0) },
                source: source
            )
        } else if let assertion = credential as? any ASAuthorizationPublicKeyCredentialAssertion {
            self.init(
                id: Array(assertion.credentialID),
                clientDataJSON: Array(assertion.rawClientDataJSON),
                // Implicitly unwrapped in the SDK: read as optionals, never forced.
                authenticatorData: assertion.rawAuthenticatorData.map { Array($0) },
                signature: assertion.signature.map { Array($0) },
                userHandle: assertion.userID.map { Array($0) },
                source: source
            )
        } else {
            throw AppleErrorMapping.authorizationError(code: AppleErrorMapping.AuthorizationCode.invalidResponse)
        }
    }

    /// The provider a credential came from, with the attachment the system states for platform credentials.
    @MainActor
    private static func source(
        of credential: any ASAuthorizationCredential
    ) throws(PasskeyError)
        -> PlatformCredentialSource
    {
        if let registration = credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration {
            return .platformProvider(attachment: attachment(registration.attachment))
        }
        if let assertion = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion {
            return .platformProvider(attachment: attachment(assertion.attachment))
        }
        #if !os(visionOS)
        if credential is ASAuthorizationSecurityKeyPublicKeyCredentialRegistration
            || credential is ASAuthorizationSecurityKeyPublicKeyCredentialAssertion
        {
            return .securityKeyProvider
        }
        #endif
        throw AppleErrorMapping.authorizationError(code: AppleErrorMapping.AuthorizationCode.invalidResponse)
    }

    private static func attachment(
        _ attachment: ASAuthorizationPublicKeyCredentialAttachment
    ) -> AuthenticatorAttachment {
        switch attachment {
        case .platform: return .platform
        case .crossPlatform: return .crossPlatform
        @unknown default: return .platform
        }
    }
}
#endif
