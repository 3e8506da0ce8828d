public import Foundation
public import WebAuthn

/// Where a ``SoftwareAuthenticator`` keeps its credentials: ``EncryptedFileKeyStore`` on disk,
/// ``MemoryKeyStore`` in tests. Every change goes through ``update(_:)``, which applies it to the current entries
/// and saves the result as one unit (or not at all).
public protocol KeyStore: Sendable {
    /// The entries now stored.
    func entries() async throws(PasskeyError) -> [KeyStoreEntry]

    /// Reads the entries, lets `body` change them, and saves them — atomically with respect to other updates.
    /// Nothing is saved when `body` throws.
    func update<Result: Sendable>(
        _ body: @Sendable (inout [KeyStoreEntry]) throws(PasskeyError) -> Result
    ) async throws(PasskeyError) -> Result

    /// Checks that the key store can be used now — opened, or created on its first change — without changing it.
    /// - Throws: the error that using it would meet (`KEY_STORE_*`).
    func checkAvailable() async throws(PasskeyError)
}

extension KeyStore {
    /// A key store is available when its entries can be read.
    public func checkAvailable() async throws(PasskeyError) { _ = try await entries() }
}

/// One credential in a key store: its key (in the ``CredentialKeys`` representation; for software keys the raw
/// P-256 private scalar, so a key store must keep entries secret) and what the authenticator remembers about it.
public struct KeyStoreEntry: Sendable, Hashable, Codable {
    public var credentialId: Base64URLBytes
    /// The key as ``CredentialKeys`` stores it.
    public var key: Base64URLBytes
    public var rpId: String
    public var userHandle: Base64URLBytes
    public var userName: String
    public var userDisplayName: String
    /// The integrator's user id, when the SDK knew it at enrollment.
    public var userId: String?
    public var discoverable: Bool
    public var signCount: UInt32
    public var backupEligible: Bool
    public var backupState: Bool
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(
        credentialId: Base64URLBytes,
        key: Base64URLBytes,
        rpId: String,
        userHandle: Base64URLBytes,
        userName: String,
        userDisplayName: String,
        userId: String?,
        discoverable: Bool,
        signCount: UInt32,
        backupEligible: Bool,
        backupState: Bool,
        createdAt: Date,
        lastUsedAt: Date? = nil
    ) {
        self.credentialId = credentialId
        self.key = key
        self.rpId = rpId
        self.userHandle = userHandle
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.userId = userId
        self.discoverable = discoverable
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// The entry as the SDK lists it.
    public var credential: Credential {
        Credential(
            credentialId: credentialId.base64URL,
            rpDomain: rpId,
            userId: userId,
            userName: userName,
            userHandle: userHandle.base64URL,
            createdAt: createdAt,
            lastUsedAt: lastUsedAt,
            isDiscoverable: discoverable
        )
    }
}

/// A key store in memory, for tests and short-lived tools. Nothing survives the process.
public actor MemoryKeyStore: KeyStore {
    private var stored: [KeyStoreEntry]

    public init(entries: [KeyStoreEntry] = []) { self.stored = entries }

    public func entries() async throws(PasskeyError) -> [KeyStoreEntry] { stored }

    public func update<Result: Sendable>(
        _ body: @Sendable (inout [KeyStoreEntry]) throws(PasskeyError) -> Result
    ) async throws(PasskeyError) -> Result {
        var copy = stored
        let result = try body(&copy)
        stored = copy
        return result
    }
}
