// Apple platforms only (AuthenticationServices, iOS 17 / macOS 14, with CryptoKit's Secure Enclave); type-checked on
// Linux against stand-in declarations (scripts/typecheck-apple.sh). Which passkey, which flags and what is signed
// are SoftwareAuthenticator.provideAssertion's, tested on Linux.
#if canImport(AuthenticationServices) && canImport(CryptoKit) && canImport(LocalAuthentication) && canImport(Security)
public import AuthenticationServices
import Foundation

/// The base of an AutoFill credential provider extension that signs in with this app's device-bound passkeys: the
/// system shows the identities ``CredentialIdentitySync`` listed; when the user picks one, this answers the
/// relying party's assertion request with the passkey's Secure Enclave key after Face ID / Touch ID / the passcode.
///
/// Subclass it as the extension's principal class and override ``makeAuthenticator()`` to open the key store the
/// app writes, from a place both can read (an app group container and the configuration's `keychainAccessGroup`).
@available(iOS 17.0, macOS 14.0, visionOS 1.0, *)
open class PasskeyCredentialProviderViewController: ASCredentialProviderViewController {
    /// The authenticator over the app's shared key store. The default throws: a subclass must say where it is.
    open func makeAuthenticator() throws(PasskeyError) -> SecureEnclaveAuthenticator {
        throw PasskeyError(
            .invalidConfiguration,
            "Override makeAuthenticator() to open the key store the app shares with this extension."
        )
    }

    /// Every answer needs the user verified, so nothing is given without the extension's interface.
    open override func provideCredentialWithoutUserInteraction(for credentialRequest: any ASCredentialRequest) {
        extensionContext.cancelRequest(withError: ASExtensionError(.userInteractionRequired))
    }

    open override func prepareInterfaceToProvideCredential(for credentialRequest: any ASCredentialRequest) {
        guard let request = credentialRequest as? ASPasskeyCredentialRequest,
            let identity = request.credentialIdentity as? ASPasskeyCredentialIdentity
        else {
            // A password or one-time code: this provider holds passkeys only.
            extensionContext.cancelRequest(withError: ASExtensionError(.credentialIdentityNotFound))
            return
        }
        let assertionRequest = ProviderAssertionRequest(
            rpID: identity.relyingPartyIdentifier,
            credentialID: Array(identity.credentialID),
            userHandle: Array(identity.userHandle),
            clientDataHash: Array(request.clientDataHash),
            userVerification: UserVerificationRequirementValue(rawValue: request.userVerificationPreference.rawValue)
                ?? .preferred
        )
        Task { @MainActor in
            do {
                let assertion = try await makeAuthenticator().provideAssertion(assertionRequest)
                extensionContext.completeAssertionRequest(
                    using: ASPasskeyAssertionCredential(
                        userHandle: Data(assertion.userHandle),
                        relyingParty: assertion.rpID,
                        signature: Data(assertion.signature),
                        clientDataHash: Data(assertion.clientDataHash),
                        authenticatorData: Data(assertion.authenticatorData),
                        credentialID: Data(assertion.credentialID)
                    ),
                    completionHandler: nil
                )
            } catch let error as PasskeyError {
                extensionContext.cancelRequest(withError: ASExtensionError(Self.code(ProviderRefusal(error))))
            } catch {
                extensionContext.cancelRequest(withError: ASExtensionError(.failed))
            }
        }
    }

    static func code(_ refusal: ProviderRefusal) -> ASExtensionError.Code {
        switch refusal {
        case .userCanceled: .userCanceled
        case .credentialIdentityNotFound: .credentialIdentityNotFound
        case .failed: .failed
        }
    }
}
#endif
