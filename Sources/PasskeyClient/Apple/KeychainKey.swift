// Apple platforms only (Security); type-checked on Linux against stand-in declarations
// (scripts/typecheck-apple.sh). Thin: one keychain item.
#if canImport(Security)
public import Crypto
import Foundation
import Security

/// A random 256-bit key kept in the keychain (this device only), to protect an ``EncryptedFileKeyStore`` with
/// ``KeyStoreProtection/key(_:)`` on Apple platforms.
public enum KeychainKey {
    /// The key of `configuration`'s key store, made on first use: the item is named by its storage namespace and
    /// lives in its ``PasskeyClientConfiguration/keychainAccessGroup`` (``PasskeyClientConfiguration/keychainItem``).
    public static func load(configuration: PasskeyClientConfiguration) throws(PasskeyError) -> SymmetricKey {
        try load(configuration.keychainItem)
    }

    /// The key of `namespace` (the configuration's storage namespace), made on first use.
    /// - Parameter accessGroup: a keychain access group shared with app extensions, if any.
    public static func load(namespace: String, accessGroup: String? = nil) throws(PasskeyError) -> SymmetricKey {
        try load(KeychainItem(account: namespace, accessGroup: accessGroup))
    }

    /// The key kept in `keychainItem`, made on first use.
    public static func load(_ keychainItem: KeychainItem) throws(PasskeyError) -> SymmetricKey {
        var item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: keychainItem.service,
            kSecAttrAccount as String: keychainItem.account,
            // On macOS too: only the data protection keychain applies kSecAttrAccessible and access groups.
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup = keychainItem.accessGroup { item[kSecAttrAccessGroup as String] = accessGroup }
        if let key = try read(item) { return key }
        let key = SymmetricKey(size: .bits256)
        var add = item
        add[kSecValueData as String] = key.withUnsafeBytes { Data($0) }
        add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        let status = SecItemAdd(add as CFDictionary, nil)
        if status == errSecDuplicateItem, let stored = try read(item) {
            // Another first load stored its key between our read and our add: that one is the key.
            return stored
        }
        guard status == errSecSuccess else {
            throw PasskeyError(
                .keyStoreUnavailable,
                "The keychain could not store the key store key (OSStatus \(status))."
            )
        }
        return key
    }

    /// The stored key, or nil when there is none.
    private static func read(_ item: [String: Any]) throws(PasskeyError) -> SymmetricKey? {
        var query = item
        query[kSecReturnData as String] = true
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else {
            throw PasskeyError(.keyStoreUnavailable, "The keychain could not be read (OSStatus \(status)).")
        }
        guard let data = result as? Data, data.count == 32 else {
            throw PasskeyError(
                .keyStoreCorrupt,
                "The keychain item of the key store key is not a 256-bit key; delete it (service swift-passkeys.key-store) only if the key store may be lost."
            )
        }
        return SymmetricKey(data: data)
    }
}
#endif
