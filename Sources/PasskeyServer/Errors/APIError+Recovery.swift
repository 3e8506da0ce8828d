import HTTPTypes

extension APIError.Code {
    /// `recovery.enabled` is off, or the server has no identity-verification provider.
    public static let recoveryNotSupported = Self(rawValue: "RECOVERY_NOT_SUPPORTED")
    /// Too many recoveries were started for the user in `recovery.attemptWindow`; retryable after `Retry-After`.
    public static let recoveryRateLimited = Self(rawValue: "RECOVERY_RATE_LIMITED")
    /// The recovery (or continuation) token is wrong or was exchanged already; it is single-use.
    public static let recoveryTokenInvalid = Self(rawValue: "RECOVERY_TOKEN_INVALID")
    /// The recovery's identity verification has not approved the person yet; retryable.
    public static let recoveryIdvNotCompleted = Self(rawValue: "RECOVERY_IDV_NOT_COMPLETED")
    /// The face captured does not match the user's enrolled identity.
    public static let recoveryMatchFailed = Self(rawValue: "RECOVERY_MATCH_FAILED")
    /// The provider has no enrolled identity of the user to match against.
    public static let recoveryEbtUnavailable = Self(rawValue: "RECOVERY_EBT_UNAVAILABLE")
    /// The recovery attempt expired; start a new one.
    public static let recoveryAttemptExpired = Self(rawValue: "RECOVERY_ATTEMPT_EXPIRED")
    /// The recovery was cancelled.
    public static let recoveryAttemptCancelled = Self(rawValue: "RECOVERY_ATTEMPT_CANCELLED")
    /// Finalized already, or the replacement passkey is not registered yet.
    public static let recoveryAttemptConflict = Self(rawValue: "RECOVERY_ATTEMPT_CONFLICT")
    /// The time to create or finalize the replacement passkey ran out.
    public static let recoveryPasskeyRegistrationExpired = Self(rawValue: "RECOVERY_PASSKEY_REGISTRATION_EXPIRED")
    /// The replacement passkey did not verify; the message carries the WebAuthn reason.
    public static let recoveryRegistrationFailed = Self(rawValue: "RECOVERY_REGISTRATION_FAILED")
    /// The replacement passkey was made for another challenge.
    public static let recoveryRegistrationMismatch = Self(rawValue: "RECOVERY_REGISTRATION_MISMATCH")
    /// `/recover/finalize`: the recovery was started by the backend, which finalizes it (`POST
    /// /v1/recoveries/{id}/finalize`); the page finalizes only the console's recoveries.
    public static let recoveryFinalizeByBackend = Self(rawValue: "RECOVERY_FINALIZE_BY_BACKEND")
}

/// The codes of account recovery on a new device (DESIGN §3 flow 5).
extension APIError {
    static let recovery: [Code] = [
        .recoveryNotSupported, .recoveryRateLimited, .recoveryTokenInvalid, .recoveryIdvNotCompleted,
        .recoveryMatchFailed, .recoveryEbtUnavailable, .recoveryAttemptExpired, .recoveryAttemptCancelled,
        .recoveryAttemptConflict, .recoveryPasskeyRegistrationExpired, .recoveryRegistrationFailed,
        .recoveryRegistrationMismatch, .recoveryFinalizeByBackend,
    ]
    static let recoveryNotSupported = Self(
        .recoveryNotSupported,
        .forbidden,
        "Account recovery is turned off on this server: set recovery.enabled to true (it also needs identityVerification.provider)."
    )
    static let recoveryNeedsIdentityVerification = Self(
        .recoveryNotSupported,
        .forbidden,
        "Account recovery verifies the person's identity, and this server has no identity-verification provider: set identityVerification.provider (simulated or webhook)."
    )
    static func recoveryRateLimited(retryAfter seconds: Int) -> Self {
        Self(
            .recoveryRateLimited,
            .tooManyRequests,
            "Too many recoveries were started for this user; retry after \(seconds) seconds, or check that nobody else is trying to take over the account.",
            retryable: true,
            headers: [.retryAfter: "\(seconds)"]
        )
    }
    static let recoveryTokenInvalid = Self(
        .recoveryTokenInvalid,
        .unauthorized,
        "This recovery token is wrong or was used already (it is exchanged once): start a new recovery through the backend."
    )
    static let recoveryNotExchanged = Self(
        .recoveryTokenInvalid,
        .unauthorized,
        "No replacement registration was issued for this recovery: exchange the recovery token at POST /v1/client/recoveries/{recoveryAttemptId}/registration first."
    )
    static let recoveryFinalizeByBackend = Self(
        .recoveryFinalizeByBackend,
        .forbidden,
        "This recovery was started by the service's backend, which finalizes it (POST /v1/recoveries/{recoveryAttemptId}/finalize): return to the app or site that sent you the link."
    )
    static let recoveryContinuationInvalid = Self(
        .recoveryTokenInvalid,
        .unauthorized,
        "This continuation token is not the one issued with this recovery's registration data: send the continuationToken it returned."
    )
    static let recoveryAttemptExpired = Self(
        .recoveryAttemptExpired,
        .gone,
        "This recovery attempt has expired: start a new recovery through the backend."
    )
    static let recoveryAttemptCancelled = Self(
        .recoveryAttemptCancelled,
        .conflict,
        "This recovery attempt was cancelled: start a new recovery through the backend if the person still needs one."
    )
    static func recoveryAttemptConflict(_ message: String) -> Self {
        Self(.recoveryAttemptConflict, .conflict, message)
    }
    static let recoveryIdentityVerificationNotCompleted = Self(
        .recoveryIdvNotCompleted,
        .conflict,
        "The person's identity has not been verified for this recovery yet: start it at POST /biometric-passkey/mobile/recovery/{recoveryAttemptId}/idv/start, let the person finish it, then ask again.",
        retryable: true
    )
    static let recoveryMatchFailed = Self(
        .recoveryMatchFailed,
        .forbidden,
        "The face captured does not match the person's enrolled identity: no passkey is created. Start a new recovery only if the person can verify again."
    )
    static let recoveryEvidenceUnavailable = Self(
        .recoveryEbtUnavailable,
        .conflict,
        "The identity-verification provider holds no enrolled identity for this user to match the face against, so this account cannot be recovered this way: recover it through your support process."
    )
    static let recoveryRegistrationExpired = Self(
        .recoveryPasskeyRegistrationExpired,
        .gone,
        "The time to create the replacement passkey has run out: start a new recovery through the backend."
    )
    static func recoveryRegistrationFailed(_ reason: APIError) -> Self {
        Self(
            .recoveryRegistrationFailed,
            .badRequest,
            "The replacement passkey did not verify (\(reason.code): \(reason.message))"
        )
    }
    static let recoveryRegistrationSpent = Self(
        .recoveryRegistrationFailed,
        .badRequest,
        "A replacement passkey for this recovery did not verify already, and the registration data carry one challenge: start a new recovery through the backend."
    )
    static let recoveryRegistrationMismatch = Self(
        .recoveryRegistrationMismatch,
        .badRequest,
        "This response was not created for this recovery's registration data: create the passkey with the challenge and user handle it returned."
    )
}
