/// What an app calls, as a protocol so that app code and its tests can put in a fake (`PasskeyTesting` has one).
public protocol PasskeyClientProtocol: Sendable {
    /// Enrolls a passkey on this device for a registration attempt that the app's backend created.
    func enroll(_ input: EnrollmentInput) async throws(PasskeyError) -> EnrollmentResult

    /// Signs in for a session that the app's backend created; the result token goes back to that backend.
    func authenticate(_ input: AuthenticationInput) async throws(PasskeyError) -> AuthenticationResult

    /// The passkeys on this device for the configured RP domain.
    func listCredentials() async throws(PasskeyError) -> [Credential]

    /// One passkey on this device. - Throws: `PASSKEY_NOT_FOUND`.
    func getCredential(id: String) async throws(PasskeyError) -> Credential

    /// Deletes a passkey from this device only; revoke it on the server through the backend API.
    func deleteCredential(id: String) async throws(PasskeyError)

    /// Whether passkeys can be used on this device.
    func isSupported() async -> Bool

    /// True when this device holds no passkey of `userId` (so offering to create one makes sense).
    func shouldPromptToCreatePasskey(userId: String) async throws(PasskeyError) -> Bool

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
