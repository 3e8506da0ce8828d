/// The keychain item that holds the key of the SDK's key store on Apple platforms (``KeychainKey``): a generic
/// password of service `swift-passkeys.key-store`, whose account is the configuration's storage namespace, in the
/// configuration's keychain access group. Platform-neutral, so that what reaches the keychain is decided (and
/// tested) in one place.
public struct KeychainItem: Sendable, Hashable {
    /// `kSecAttrService`.
    public var service: String
    /// `kSecAttrAccount`: ``PasskeyClientConfiguration/storage``.
    public var account: String
    /// `kSecAttrAccessGroup`: ``PasskeyClientConfiguration/keychainAccessGroup``; nil for the app's default group.
    public var accessGroup: String?

    public static let keyStoreService = "swift-passkeys.key-store"

    public init(service: String = Self.keyStoreService, account: String, accessGroup: String? = nil) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
    }
}

extension PasskeyClientConfiguration {
    /// The keychain item of this configuration's key store key: its storage namespace, in its keychain access group.
    public var keychainItem: KeychainItem { KeychainItem(account: storage, accessGroup: keychainAccessGroup) }
}
