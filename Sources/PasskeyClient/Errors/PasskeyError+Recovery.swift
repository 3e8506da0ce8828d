extension PasskeyError.Code {
    // MARK: Recovery on a new device (the server's codes, kept as they are)

    /// The server does not offer recovery (turned off, or no identity verification).
    public static let recoveryNotSupported: Self = "RECOVERY_NOT_SUPPORTED"
    /// Too many recoveries were started for the user; retry later.
    public static let recoveryRateLimited: Self = "RECOVERY_RATE_LIMITED"
    /// The recovery token is wrong or was used already: ask the backend for a new recovery.
    public static let recoveryTokenInvalid: Self = "RECOVERY_TOKEN_INVALID"
    /// The person's identity has not been verified (yet).
    public static let recoveryIdentityVerificationNotCompleted: Self = "RECOVERY_IDV_NOT_COMPLETED"
    /// The face captured does not match the user's enrolled identity.
    public static let recoveryMatchFailed: Self = "RECOVERY_MATCH_FAILED"
    /// The identity-verification provider holds no enrolled identity of the user to match against.
    public static let recoveryEvidenceUnavailable: Self = "RECOVERY_EBT_UNAVAILABLE"
    public static let recoveryAttemptExpired: Self = "RECOVERY_ATTEMPT_EXPIRED"
    public static let recoveryAttemptCancelled: Self = "RECOVERY_ATTEMPT_CANCELLED"
    /// The recovery was finalized already, or is not ready for this step.
    public static let recoveryAttemptConflict: Self = "RECOVERY_ATTEMPT_CONFLICT"
    /// The time to create the replacement passkey ran out.
    public static let recoveryPasskeyRegistrationExpired: Self = "RECOVERY_PASSKEY_REGISTRATION_EXPIRED"
    /// The replacement passkey did not verify (the message carries the WebAuthn reason).
    public static let recoveryRegistrationFailed: Self = "RECOVERY_REGISTRATION_FAILED"
    /// The registration data or the passkey belongs to another user handle or challenge.
    public static let recoveryRegistrationMismatch: Self = "RECOVERY_REGISTRATION_MISMATCH"

    /// The recovery codes that retrying the same request can never cure — token, attempt and expiry errors among
    /// them — whatever a server says: the person needs a new recovery (or another way in).
    static let neverRetryableRecoveryCodes: Set<Self> = [
        .recoveryNotSupported, .recoveryTokenInvalid, .recoveryMatchFailed, .recoveryEvidenceUnavailable,
        .recoveryAttemptExpired, .recoveryAttemptCancelled, .recoveryAttemptConflict,
        .recoveryPasskeyRegistrationExpired, .recoveryRegistrationFailed, .recoveryRegistrationMismatch,
    ]
}
