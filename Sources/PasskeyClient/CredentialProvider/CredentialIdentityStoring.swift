/// The system's store of AutoFill identities (`ASCredentialIdentityStore` on Apple platforms; on Linux, tests supply
/// their own). ``CredentialIdentitySync`` decides what goes in it.
public protocol CredentialIdentityStoring: Sendable {
    /// Whether the user turned this app on as a credential provider, and whether the store takes single changes.
    func state() async -> CredentialIdentityStoreState
    /// Adds or updates these identities (only when ``CredentialIdentityStoreState/supportsIncrementalUpdates``).
    func save(_ identities: [PasskeyCredentialIdentity]) async throws(PasskeyError)
    /// Replaces every identity of this app with these.
    func replaceAll(with identities: [PasskeyCredentialIdentity]) async throws(PasskeyError)
    /// Removes every identity of this app.
    func removeAll() async throws(PasskeyError)
}

/// The state of the system's identity store (`ASCredentialIdentityStoreState`).
public struct CredentialIdentityStoreState: Sendable, Hashable {
    /// The user turned this app on as an AutoFill provider in Settings.
    public var isEnabled: Bool
    public var supportsIncrementalUpdates: Bool

    public init(isEnabled: Bool, supportsIncrementalUpdates: Bool) {
        self.isEnabled = isEnabled
        self.supportsIncrementalUpdates = supportsIncrementalUpdates
    }
}
