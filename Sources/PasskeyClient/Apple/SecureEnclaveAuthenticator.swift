// Apple platforms only. Compiled where AuthenticationServices, CryptoKit and LocalAuthentication exist; our CI
// runs on Linux and cannot compile it. Thin on purpose: the ceremonies are `SoftwareAuthenticator`'s (tested on
// Linux); this file only supplies Secure Enclave keys and LocalAuthentication prompts, with errors mapped by
// `AppleErrorMapping` (also tested on Linux).
#if canImport(AuthenticationServices) && canImport(CryptoKit) && canImport(LocalAuthentication)
import CryptoKit
import Foundation
import LocalAuthentication
import Security
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

    public func isSupported() async -> Bool { SecureEnclave.isAvailable }

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

    public func credentials(rpDomain: String?) async throws(PasskeyError) -> [Credential] {
        try await engine.credentials(rpDomain: rpDomain)
    }
    public func deleteCredential(id: String) async throws(PasskeyError) { try await engine.deleteCredential(id: id) }
}

/// An evaluated `LAContext`, handed from the verifier to the key operations so the user is asked once.
final class EvaluatedContext: @unchecked Sendable {
    let context: LAContext
    init(_ context: LAContext) { self.context = context }
}

/// Verifies the user with biometrics or the device passcode.
public struct LocalAuthenticationVerifier: UserVerifier {
    public let reason: String
    public init(reason: String) { self.reason = reason }

    public func verifyUser(_ request: UserVerificationRequest) async throws(PasskeyError) -> UserVerificationOutcome {
        let context = LAContext()
        do {
            _ = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: reason)
        } catch let error as LAError {
            throw AppleErrorMapping.localAuthenticationError(code: error.code.rawValue, cause: error)
        } catch {
            throw AppleErrorMapping.localAuthenticationError(code: (error as NSError).code)
        }
        return UserVerificationOutcome(userVerified: true, context: EvaluatedContext(context))
    }
}

/// Secure Enclave P-256 keys; `stored` is the enclave's encrypted key blob (`dataRepresentation`).
public struct SecureEnclaveCredentialKeys: CredentialKeys {
    public init() {}

    public func makeKey(
        verification: UserVerificationOutcome
    ) async throws(PasskeyError) -> (stored: [UInt8], publicKey: [UInt8]) {
        var failure: Unmanaged<CFError>?
        guard
            let access = SecAccessControlCreateWithFlags(
                nil,
                kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                [.privateKeyUsage, .userPresence],
                &failure
            )
        else {
            throw PasskeyError(
                .hardwareNotAvailable,
                "The Secure Enclave key's access control cannot be made (is a passcode set?)."
            )
        }
        do {
            let key = try SecureEnclave.P256.Signing.PrivateKey(
                accessControl: access,
                authenticationContext: (verification.context as? EvaluatedContext)?.context
            )
            return (Array(key.dataRepresentation), Array(key.publicKey.x963Representation))
        } catch {
            throw PasskeyError(.hardwareNotAvailable, "The Secure Enclave could not make a key.", cause: error)
        }
    }

    public func sign(
        _ data: [UInt8],
        stored: [UInt8],
        verification: UserVerificationOutcome
    ) async throws(PasskeyError) -> [UInt8] {
        do {
            let key = try SecureEnclave.P256.Signing.PrivateKey(
                dataRepresentation: Data(stored),
                authenticationContext: (verification.context as? EvaluatedContext)?.context
            )
            return Array(try key.signature(for: Data(data)).derRepresentation)
        } catch {
            throw PasskeyError(
                .hardwareNotAvailable,
                "The Secure Enclave could not sign (the key belongs to another device, or was removed).",
                cause: error
            )
        }
    }
}
#endif
