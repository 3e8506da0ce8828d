// Apple platforms only (CryptoKit's Secure Enclave, LocalAuthentication, Security); type-checked on Linux against
// stand-in declarations (scripts/typecheck-apple.sh).
#if canImport(CryptoKit) && canImport(LocalAuthentication) && canImport(Security)
import CryptoKit
import Foundation
import LocalAuthentication
import Security

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
            let cause: (any Error)? = failure?.takeRetainedValue()
            throw PasskeyError(
                .hardwareNotAvailable,
                "The Secure Enclave key's access control cannot be made (is a passcode set?); the cause says why.",
                cause: cause
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
