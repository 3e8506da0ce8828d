/// Keeps the system's AutoFill identities equal to this app's passkeys for one relying party: after an enrolment
/// (``syncUser(_:)``), when the app comes to the foreground (``syncAll()``), and on sign-out (``removeAll()``).
/// Only discoverable passkeys are listed: AutoFill offers an account before the relying party names one.
///
/// ```swift
/// let sync = CredentialIdentitySync(keyStore: registry, identityStore: SystemCredentialIdentityStore(), rpID: "example.com")
/// _ = try await sync.syncUser("user-42")   // after enroll(_:)
/// ```
public struct CredentialIdentitySync: Sendable {
    /// What a sync did.
    public enum Outcome: Sendable, Hashable {
        /// The identities listed were written (saved one by one, or the whole list replaced).
        case synced([PasskeyCredentialIdentity])
        /// The app is not turned on as a credential provider: nothing was written (on Apple platforms
        /// `CredentialProviderSettings.open()` takes the user to the setting).
        case providerDisabled
    }

    public let keyStore: any KeyStore
    public let identityStore: any CredentialIdentityStoring
    public let rpID: String

    public init(keyStore: any KeyStore, identityStore: any CredentialIdentityStoring, rpID: String) {
        self.keyStore = keyStore
        self.identityStore = identityStore
        self.rpID = rpID
    }

    /// The identities of this relying party's discoverable passkeys, oldest first; one user's when `userId` is given.
    public func identities(userId: String? = nil) async throws(PasskeyError) -> [PasskeyCredentialIdentity] {
        try await keyStore.entries()
            .filter { $0.rpId == rpID && $0.discoverable && (userId == nil || $0.userId == userId) }
            .sorted { $0.createdAt < $1.createdAt }
            .map(PasskeyCredentialIdentity.init)
    }

    /// After an enrolment: the user's passkeys are saved (or, where the store takes no single changes, every
    /// passkey of the relying party replaces what it held).
    public func syncUser(_ userId: String) async throws(PasskeyError) -> Outcome {
        let state = await identityStore.state()
        guard state.isEnabled else { return .providerDisabled }
        guard state.supportsIncrementalUpdates else { return try await replaceAll() }
        let identities = try await identities(userId: userId)
        try await identityStore.save(identities)
        return .synced(identities)
    }

    /// On foreground: the store holds exactly this relying party's passkeys (deleted ones leave it).
    public func syncAll() async throws(PasskeyError) -> Outcome {
        guard await identityStore.state().isEnabled else { return .providerDisabled }
        return try await replaceAll()
    }

    /// On sign-out: AutoFill offers none of this app's passkeys until the next sync.
    public func removeAll() async throws(PasskeyError) {
        guard await identityStore.state().isEnabled else { return }
        try await identityStore.removeAll()
    }

    private func replaceAll() async throws(PasskeyError) -> Outcome {
        let identities = try await identities()
        try await identityStore.replaceAll(with: identities)
        return .synced(identities)
    }
}
