// Apple platforms only: compiled where CryptoKit's Secure Enclave, LocalAuthentication and Security exist, and
// type-checked on Linux against stand-in declarations (scripts/typecheck-apple.sh). Thin on purpose: the
// ceremonies are `SoftwareAuthenticator`'s (tested on Linux); this file only supplies Secure Enclave keys
// (`SecureEnclaveCredentialKeys`) and LocalAuthentication prompts (`LocalAuthenticationVerifier`).
#if canImport(CryptoKit) && canImport(LocalAuthentication) && canImport(Security)
import CryptoKit
public import WebAuthn

/// Device-bound passkeys: P-256 keys made in the Secure Enclave (they never leave this device, and are not
/// synced or backed up), used after LocalAuthentication verifies the user. Entries (the Secure Enclave's
/// encrypted key blobs and the metadata) live in `keyStore`.
public struct SecureEnclaveAuthenticator: Authenticator {
    let engine: SoftwareAuthenticator

    /// - Parameter reason: the text the biometric prompt shows.
    public init(keyStore: any KeyStore, reason: String) {
        engine = SoftwareAuthenticator(
            keyStore: keyStore,
            verifier: LocalAuthenticationVerifier(reason: reason),
            behaviour: SoftwareAuthenticator.Behaviour(
                attestation: .none,
                counter: .incrementing,
                backup: .deviceBound
            ),
            keys: SecureEnclaveCredentialKeys()
        )
    }

    /// Whether this device has a Secure Enclave, the system can verify the user (a passcode is set), and the key
    /// store can be opened or created.
    public func isSupported() async -> Bool {
        guard SecureEnclave.isAvailable, LocalAuthenticationVerifier.canVerifyUser() else { return false }
        return await engine.isSupported()
    }

    public func makeCredential(
        _ request: CredentialCreationRequest
    ) async throws(PasskeyError) -> RegistrationResponseJSON {
        guard SecureEnclave.isAvailable else {
            throw PasskeyError(.hardwareNotAvailable, "This device has no Secure Enclave.")
        }
        return try await engine.makeCredential(request)
    }

    public func getAssertion(
        _ request: CredentialAssertionRequest
    ) async throws(PasskeyError) -> AuthenticationResponseJSON {
        try await engine.getAssertion(request)
    }

    /// A credential provider extension's answer (AutoFill), with the Secure Enclave key of the passkey requested.
    public func provideAssertion(_ request: ProviderAssertionRequest) async throws(PasskeyError) -> ProviderAssertion {
        try await engine.provideAssertion(request)
    }

    public func credentials(rpDomain: String?) async throws(PasskeyError) -> [Credential] {
        try await engine.credentials(rpDomain: rpDomain)
    }
    public func deleteCredential(id: String) async throws(PasskeyError) { try await engine.deleteCredential(id: id) }
}
#endif
