/// What an app calls, as a protocol so that app code and its tests can put in a fake (`PasskeyTesting` has one).
public protocol PasskeyClientProtocol: Sendable {
    /// Enrolls a passkey on this device for a registration attempt that the app's backend created.
    func enroll(_ input: EnrollmentInput) async throws(PasskeyError) -> EnrollmentResult

    /// Signs in for a session that the app's backend created; the result token goes back to that backend.
    func authenticate(_ input: AuthenticationInput) async throws(PasskeyError) -> AuthenticationResult

    /// The passkeys on this device for the configured RP domain.
    func listCredentials() async throws(PasskeyError) -> [Credential]

    /// The passkeys on this device enrolled for the integrator's `userId` — this device's record, not the server's
    /// list.
    func listCredentials(userId: String) async throws(PasskeyError) -> [Credential]

    /// One passkey on this device. - Throws: `PASSKEY_NOT_FOUND`.
    func getCredential(id: String) async throws(PasskeyError) -> Credential

    /// Deletes a passkey from this device only, and returns it; revoke it on the server through the backend API.
    /// - Throws: `PASSKEY_NOT_FOUND`; `CREDENTIAL_DELETE_FORBIDDEN` for platform passkeys.
    @discardableResult
    func deleteCredential(id: String) async throws(PasskeyError) -> Credential

    /// Whether passkeys can be used on this device now — probed: on Apple platforms, whether the system can verify
    /// the user (a passcode is set); with the software authenticator, whether its key store can be opened or made.
    func isPlatformAuthenticatorAvailable() async -> Bool

    /// The same probe as ``isPlatformAuthenticatorAvailable()``, under its first name.
    func isSupported() async -> Bool

    /// True when passkeys can be used here and this device holds no passkey enrolled for `userId` (so offering to
    /// create one makes sense).
    func shouldPromptToCreatePasskey(userId: String) async throws(PasskeyError) -> Bool

    /// True when passkeys can be used here and none of the passkeys here is one of the user's active passkeys on
    /// the server (`serverCredentialIds`): a synced passkey signed in with here counts, a revoked one does not.
    func shouldPromptToCreatePasskey(userId: String, serverCredentialIds: [String]?) async throws(PasskeyError) -> Bool

    /// `create()` on the server's creation options JSON (top level, or wrapped in `{"publicKey": …}`); returns the
    /// `RegistrationResponseJSON` text.
    func create(requestJSON: String) async throws(PasskeyError) -> String

    /// `get()` on the server's request options JSON (top level, or wrapped in `{"publicKey": …}`); returns the
    /// `AuthenticationResponseJSON` text.
    func authenticate(requestJSON: String) async throws(PasskeyError) -> String

    /// Recovers the account on this new device: identity verification, the replacement registration data from
    /// `registrationProvider`, a new passkey.
    func recover(
        _ input: RecoveryInput,
        registrationProvider: any RecoveryRegistrationProvider
    ) async throws(PasskeyError) -> RecoveredCredentialOutput
}

extension PasskeyClientProtocol {
    /// The passkeys here whose recorded user id is `userId`.
    public func listCredentials(userId: String) async throws(PasskeyError) -> [Credential] {
        try PasskeyClient.validateUserID(userId)
        return try await listCredentials().filter { $0.userId == userId }
    }

    public func isPlatformAuthenticatorAvailable() async -> Bool { await isSupported() }

    /// Whether to offer `userId` a new passkey here: true when passkeys can be used on this device
    /// (``isPlatformAuthenticatorAvailable()``) and the user has no passkey usable here.
    ///
    /// - Parameter serverCredentialIds: the ids of the user's active passkeys on the server, as the app's backend
    ///   reads them (`GET /v1/users/{userId}/credentials`, status `active`). With them, a passkey here counts when
    ///   the server lists it — one made here, or a synced passkey the user signed in with here (the platform
    ///   adapter records those) — and a passkey the server no longer has (revoked, deleted) does not. Without them
    ///   (nil), as ``shouldPromptToCreatePasskey(userId:)``: the passkeys here enrolled for `userId` count.
    public func shouldPromptToCreatePasskey(
        userId: String,
        serverCredentialIds: [String]?
    ) async throws(PasskeyError) -> Bool {
        guard let serverCredentialIds else { return try await shouldPromptToCreatePasskey(userId: userId) }
        try PasskeyClient.validateUserID(userId)
        guard await isPlatformAuthenticatorAvailable() else { return false }
        let onServer = Set(serverCredentialIds)
        // A passkey recorded for another user of this app is not this user's, whatever list the app passed.
        return try await !listCredentials().contains {
            onServer.contains($0.credentialId) && ($0.userId == nil || $0.userId == userId)
        }
    }
}
