// Apple platforms only (Security); type-checked on Linux against stand-in declarations
// (scripts/typecheck-apple.sh). Thin: one keychain item holding the session's JSON.
#if canImport(Security)
import Foundation
import Security

/// A token session in the keychain (this device only, after first unlock): a generic password of service
/// `swift-passkeys.token-session` whose account is the configuration's storage namespace.
public struct KeychainTokenSessionStorage: TokenSessionStorage {
    public static let service = "swift-passkeys.token-session"
    let item: KeychainItem

    public init(configuration: PasskeyClientConfiguration) {
        item = KeychainItem(
            service: Self.service,
            account: configuration.storage,
            accessGroup: configuration.keychainAccessGroup
        )
    }

    private var query: [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: item.service,
            kSecAttrAccount as String: item.account,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup = item.accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    public func load() async throws(PasskeyError) -> StoredTokenSession? {
        var read = query
        read[kSecReturnData as String] = true
        var result: CFTypeRef?
        let status = SecItemCopyMatching(read as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else {
            throw PasskeyError(.keyStoreUnavailable, "The keychain could not be read (OSStatus \(status)).")
        }
        do {
            return try JSONDecoder.tokenSession.decode(StoredTokenSession.self, from: data)
        } catch {
            throw PasskeyError(.keyStoreCorrupt, "The keychain's token session cannot be read.", cause: error)
        }
    }

    public func save(_ session: StoredTokenSession) async throws(PasskeyError) {
        let data: Data
        do {
            data = try JSONEncoder.tokenSession.encode(session)
        } catch {
            throw PasskeyError(.keyStoreUnavailable, "The token session cannot be encoded.", cause: error)
        }
        // One update of the existing item replaces it whole; an add when there is none.
        let update: [String: Any] = [kSecValueData as String: data]
        var status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
        if status == errSecItemNotFound {
            var add = query
            add[kSecValueData as String] = data
            add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            status = SecItemAdd(add as CFDictionary, nil)
        }
        guard status == errSecSuccess else {
            throw PasskeyError(
                .keyStoreUnavailable,
                "The keychain could not store the token session (OSStatus \(status))."
            )
        }
    }

    public func clear() async throws(PasskeyError) {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw PasskeyError(
                .keyStoreUnavailable,
                "The keychain could not remove the token session (OSStatus \(status))."
            )
        }
    }
}
#endif
