extension PasskeyError.Code {
    // MARK: Configuration and input
    /// ``PasskeyClientConfiguration`` is invalid; the message names the field and the rule.
    public static let invalidConfiguration: Self = "INVALID_CONFIGURATION"
    /// An input (an options JSON, an id, a list) is invalid; the message names it.
    public static let invalidInput: Self = "INVALID_INPUT"
    /// The feature exists in the API but not in this version of the SDK (cross-platform inputs).
    public static let featureNotAvailable: Self = "FEATURE_NOT_AVAILABLE"

    // MARK: Transport
    /// The server could not be reached, or the connection failed.
    public static let networkError: Self = "NETWORK_ERROR"
    /// The server failed (5xx) or answered something that is not our API.
    public static let serverError: Self = "SERVER_ERROR"
    /// The server did not answer in time.
    public static let timeout: Self = "TIMEOUT"
    /// The calling task was cancelled.
    public static let cancelled: Self = "CANCELLED"
    /// Too many requests; retry later.
    public static let rateLimited: Self = "RATE_LIMITED"
    /// The server has no such resource (a user, a flow) or endpoint (check ``PasskeyClientConfiguration/serverBaseURL``).
    public static let notFound: Self = "NOT_FOUND"

    // MARK: Challenges and sessions
    /// The challenge expired before the response reached the server; start again.
    public static let challengeExpired: Self = "CHALLENGE_EXPIRED"
    /// The challenge was already used.
    public static let challengeConsumed: Self = "CHALLENGE_CONSUMED"
    /// The flow does not allow new options (it is complete).
    public static let challengeRefreshForbidden: Self = "CHALLENGE_REFRESH_FORBIDDEN"
    /// The session (or its client token) is unknown, wrong or expired; create a new one in your backend.
    public static let invalidOrExpiredSession: Self = "INVALID_OR_EXPIRED_SESSION"
    /// The response does not belong to this session (another challenge, ceremony or user).
    public static let authContextMismatch: Self = "AUTH_CONTEXT_MISMATCH"
    /// The server does not accept this app's origin or RP ID: check `rpDomain` and the association files.
    public static let relyingPartyMismatch: Self = "RELYING_PARTY_MISMATCH"

    // MARK: The user
    /// The user dismissed the prompt.
    public static let userCancelled: Self = "USER_CANCELLED"
    /// Biometrics are locked after too many failed attempts; the user must unlock with the device passcode, then
    /// the same call may be retried (``PasskeyError/isRetryable`` is true).
    public static let biometricLockout: Self = "BIOMETRIC_LOCKOUT"
    /// User verification was required and did not succeed.
    public static let userVerificationFailed: Self = "USER_VERIFICATION_FAILED"
    /// The server requires user verification and the response did not carry it.
    public static let userVerificationRequired: Self = "USER_VERIFICATION_REQUIRED"

    // MARK: Passkeys
    /// No passkey on this device matches (or the server does not know the passkey used).
    public static let passkeyNotFound: Self = "PASSKEY_NOT_FOUND"
    /// This device already holds a passkey the server listed in `excludeCredentials`.
    public static let passkeyAlreadyExists: Self = "PASSKEY_ALREADY_EXISTS"
    /// The passkey was revoked on the server, or is not finalized.
    public static let passkeyRevoked: Self = "PASSKEY_REVOKED"
    /// The passkey cannot be deleted here (platform passkeys are removed in the system's password manager).
    public static let credentialDeleteForbidden: Self = "CREDENTIAL_DELETE_FORBIDDEN"
    /// The server saw a signature counter go backwards: the passkey may have been cloned.
    public static let credentialCloneSuspected: Self = "CREDENTIAL_CLONE_SUSPECTED"
    /// The server could not verify the attestation or assertion.
    public static let verificationFailed: Self = "VERIFICATION_FAILED"
    /// The server's policy does not accept this authenticator (attestation format, algorithm, synced passkeys).
    public static let authenticatorNotAllowed: Self = "AUTHENTICATOR_NOT_ALLOWED"

    // MARK: Hardware
    /// The device cannot do what was asked (no passkey support, no biometrics or passcode, no resident keys).
    public static let hardwareNotAvailable: Self = "HARDWARE_NOT_AVAILABLE"

    // MARK: Registration and finalize lifecycle
    public static let registrationAttemptExpired: Self = "REGISTRATION_ATTEMPT_EXPIRED"
    public static let registrationAttemptConflict: Self = "REGISTRATION_ATTEMPT_CONFLICT"
    public static let reservationExpired: Self = "RESERVATION_EXPIRED"
    /// The app's backend cancelled the registration attempt before it completed; start a new enrolment.
    public static let registrationAttemptCancelled: Self = "REGISTRATION_ATTEMPT_CANCELLED"
    /// The registration attempt was over and the server cleaned it up; start a new enrolment.
    public static let registrationAttemptCleanedUp: Self = "REGISTRATION_ATTEMPT_CLEANED_UP"
    /// The app's backend aborted the registration because its identity provider refused the new passkey (which the
    /// server removed); start the enrolment again.
    public static let idpCommitFailed: Self = "IDP_COMMIT_FAILED"
    public static let maxCredentialsReached: Self = "MAX_CREDENTIALS_REACHED"
    public static let credentialNameInvalid: Self = "CREDENTIAL_NAME_INVALID"
    public static let credentialNameDuplicate: Self = "CREDENTIAL_NAME_DUPLICATE"

    // MARK: Step-up, cross-platform, recovery and identity verification (server codes kept as they are)
    public static let stepUpCredentialUserMismatch: Self = "STEP_UP_CREDENTIAL_USER_MISMATCH"
    /// The passkey is not one the step-up session allows, or the client token is another session's.
    public static let stepUpAuthSessionMismatch: Self = "STEP_UP_AUTH_SESSION_MISMATCH"
    /// The identity verification has no decision yet (after ``PasskeyClient/identityVerificationWait``).
    public static let workflowNotCompleted: Self = "WORKFLOW_NOT_COMPLETED"
    /// The identity verification was declined: the flow cannot go on.
    public static let workflowDeclined: Self = "WORKFLOW_DECLINED"
    /// A person reviews the identity verification; that can take long. Try again later with a new flow.
    public static let workflowUnderReview: Self = "WORKFLOW_UNDER_REVIEW"
    public static let workflowRunReuseForbidden: Self = "WORKFLOW_RUN_REUSE_FORBIDDEN"
    /// The step-up session's identity verification was already started; create a new session to start again.
    public static let identityVerificationAlreadyStarted: Self = "IDV_ALREADY_STARTED"
    /// No handoff has this token: scan the QR code again.
    public static let handoffTokenInvalid: Self = "HANDOFF_TOKEN_INVALID"
    /// Another device claimed the handoff first.
    public static let handoffAlreadyClaimed: Self = "HANDOFF_ALREADY_CLAIMED"
    /// The handoff (or its session) has expired; the other device must start again.
    public static let handoffExpired: Self = "HANDOFF_EXPIRED"
    /// Not the number the other device shows; the message says how many tries are left.
    public static let handoffCodeMismatch: Self = "HANDOFF_CODE_MISMATCH"
    /// The number has not been confirmed yet.
    public static let handoffNotConfirmed: Self = "HANDOFF_NOT_CONFIRMED"
    /// The handoff was rejected (by the person, or after wrong numbers).
    public static let handoffRejected: Self = "HANDOFF_REJECTED"

    // MARK: The software authenticator's key store
    /// The key store file is damaged or was modified (it fails authentication with the right key).
    public static let keyStoreCorrupt: Self = "KEY_STORE_CORRUPT"
    /// The file is not a key store of this SDK (or was written by a newer version).
    public static let keyStoreUnrecognized: Self = "KEY_STORE_UNRECOGNIZED"
    /// The passphrase (or key file) does not open this key store.
    public static let keyStoreWrongPassphrase: Self = "KEY_STORE_WRONG_PASSPHRASE"
    /// The key store file is readable or writable by other users; it must be owner-only (0600).
    public static let keyStoreInsecure: Self = "KEY_STORE_INSECURE"
    /// The key store cannot be read or written (a missing folder, a full disk, a permission).
    public static let keyStoreUnavailable: Self = "KEY_STORE_UNAVAILABLE"

    /// Whether an error with this code is worth retrying as it is, unless the server said otherwise.
    var isRetryableByDefault: Bool {
        // A biometric lockout ends when the user enters the device passcode: the same call then succeeds.
        [Self.networkError, .timeout, .serverError, .rateLimited, .challengeExpired, .biometricLockout].contains(self)
    }
}
