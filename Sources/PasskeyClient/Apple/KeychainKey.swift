// Apple platforms only (Security framework); our Linux CI cannot compile it. Thin: one keychain item.
#if canImport(AuthenticationServices) && canImport(Security)
public import Crypto
import Foundation
import Security

/// A random 256-bit key kept in the keychain (this device only), to protect an ``EncryptedFileKeyStore`` with
/// ``KeyStoreProtection/key(_:)`` on Apple platforms.
public enum KeychainKey {
    /// The key of `namespace` (the configuration's storage namespace), made on first use.
    /// - Parameter accessGroup: a keychain access group shared with app extensions, if any.
    public static func load(namespace: String, accessGroup: String? = nil) throws(PasskeyError) -> SymmetricKey {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "swift-passkeys.key-store",
            kSecAttrAccount as String: namespace, kSecReturnData as String: true,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        if status == errSecSuccess, let data = item as? Data, data.count == 32 { return SymmetricKey(data: data) }
        guard status == errSecItemNotFound else {
            throw PasskeyError(.keyStoreUnavailable, "The keychain could not be read (OSStatus \(status)).")
        }
        let key = SymmetricKey(size: .bits256)
        var add = query
        add.removeValue(forKey: kSecReturnData as String)
        add[kSecValueData as String] = key.withUnsafeBytes { Data($0) }
        add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        let added = SecItemAdd(add as CFDictionary, nil)
        guard added == errSecSuccess else {
            throw PasskeyError(
                .keyStoreUnavailable,
                "The keychain could not store the key store key (OSStatus \(added))."
            )
        }
        return key
    }
}
#endif
