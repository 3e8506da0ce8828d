// Apple platforms only (Security); type-checked on Linux against stand-in declarations
// (scripts/typecheck-apple.sh).
#if canImport(Security)
import Foundation

extension EncryptedFileKeyStore {
    /// The app's key store for `configuration`: `passkeys.json` in the folder named after its storage namespace in
    /// Application Support, encrypted with the keychain key of ``PasskeyClientConfiguration/keychainItem`` — so the
    /// configuration's ``PasskeyClientConfiguration/keychainAccessGroup`` reaches the keychain without more wiring.
    /// Give it to ``PlatformPasskeyAuthenticator`` (as its registry) or ``SecureEnclaveAuthenticator``.
    /// - Throws: `KEY_STORE_UNAVAILABLE` when the keychain or the Application Support folder cannot be used.
    public static func keychainProtected(
        configuration: PasskeyClientConfiguration
    ) throws(PasskeyError) -> EncryptedFileKeyStore {
        guard
            let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
        else {
            throw PasskeyError(.keyStoreUnavailable, "This app has no Application Support folder.")
        }
        let path = support.appendingPathComponent(configuration.storage).appendingPathComponent("passkeys.json").path
        return EncryptedFileKeyStore(path: path, protection: .key(try KeychainKey.load(configuration: configuration)))
    }
}
#endif
