public import Foundation

/// What ``PasskeyClient/enroll(_:)`` needs: the registration attempt the app's backend created
/// (`POST /v1/registrations` → `registrationAttemptId`, `clientToken`, and with identity verification
/// `workflowRunId`, `idvToken`).
public struct EnrollmentInput: Sendable, Hashable {
    /// The identity verification run the attempt requires to be approved before the passkey is enrolled.
    public struct IdentityVerification: Sendable, Hashable {
        /// The run (`idv_…`), from the registration attempt's `workflowRunId`.
        public var workflowRunId: String
        /// The vendor's token, from the registration attempt's `idvToken`.
        public var idvToken: String
        /// When the run expires, when your backend knows it.
        public var expiresAt: Date?

        public init(workflowRunId: String, idvToken: String, expiresAt: Date? = nil) {
            self.workflowRunId = workflowRunId
            self.idvToken = idvToken
            self.expiresAt = expiresAt
        }
    }

    public var registrationAttemptId: String
    public var clientToken: String
    /// The integrator's user id, remembered with the passkey on this device for
    /// ``PasskeyClient/shouldPromptToCreatePasskey(userId:)``.
    public var userId: String?
    /// The passkey's name on the server (1–64 characters); the server picks one from the authenticator when nil.
    public var credentialName: String?
    /// When this device already holds one of the user's passkeys (the server listed it in `excludeCredentials`):
    /// fail with `PASSKEY_ALREADY_EXISTS` (false, the default), or succeed with ``EnrollmentResult/Status/alreadyEnrolled``.
    public var treatExistingPasskeyAsSuccess: Bool
    /// Identity-verified enrollment: the ``PasskeyClient``'s ``IdentityVerifier`` runs first, then the SDK waits
    /// for the server to approve the run before it asks for the creation options.
    public var identityVerification: IdentityVerification?

    public init(
        registrationAttemptId: String,
        clientToken: String,
        userId: String? = nil,
        credentialName: String? = nil,
        treatExistingPasskeyAsSuccess: Bool = false,
        identityVerification: IdentityVerification? = nil
    ) {
        self.registrationAttemptId = registrationAttemptId
        self.clientToken = clientToken
        self.userId = userId
        self.credentialName = credentialName
        self.treatExistingPasskeyAsSuccess = treatExistingPasskeyAsSuccess
        self.identityVerification = identityVerification
    }
}

/// What an enrollment produced.
public struct EnrollmentResult: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable {
        /// A new passkey was created here and stored by the server.
        case enrolled
        /// This device already had one of the user's passkeys; nothing was created.
        case alreadyEnrolled
    }

    public var status: Status
    /// The passkey's id, unpadded base64url.
    public var credentialId: String
    /// The passkey as the server stored it (nil when ``status`` is `alreadyEnrolled`).
    public var registered: RegisteredCredential?
    /// The passkey as this device lists it (nil when the authenticator cannot list, as with platform passkeys).
    public var credential: Credential?

    public init(status: Status, credentialId: String, registered: RegisteredCredential?, credential: Credential?) {
        self.status = status
        self.credentialId = credentialId
        self.registered = registered
        self.credential = credential
    }
}
