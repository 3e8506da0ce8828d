import HTTPTypes

/// The codes of account recovery on a new device (DESIGN §3 flow 5).
extension APIError {
    static let recovery: [Code] = [
        "RECOVERY_NOT_SUPPORTED", "RECOVERY_RATE_LIMITED", "RECOVERY_TOKEN_INVALID", "RECOVERY_IDV_NOT_COMPLETED",
        "RECOVERY_MATCH_FAILED", "RECOVERY_EBT_UNAVAILABLE", "RECOVERY_ATTEMPT_EXPIRED", "RECOVERY_ATTEMPT_CANCELLED",
        "RECOVERY_ATTEMPT_CONFLICT", "RECOVERY_PASSKEY_REGISTRATION_EXPIRED", "RECOVERY_REGISTRATION_FAILED",
        "RECOVERY_REGISTRATION_MISMATCH", "RECOVERY_FINALIZE_BY_BACKEND",
    ]
    static let recoveryNotSupported = Self(
        "RECOVERY_NOT_SUPPORTED",
        .forbidden,
        "Account recovery is turned off on this server: set recovery.enabled to true (it also needs identityVerification.provider)."
    )
    static let recoveryNeedsIdentityVerification = Self(
        "RECOVERY_NOT_SUPPORTED",
        .forbidden,
        "Account recovery verifies the person's identity, and this server has no identity-verification provider: set identityVerification.provider (simulated or webhook)."
    )
    static func recoveryRateLimited(retryAfter seconds: Int) -> Self {
        Self(
            "RECOVERY_RATE_LIMITED",
            .tooManyRequests,
            "Too many recoveries were started for this user; retry after \(seconds) seconds, or check that nobody else is trying to take over the account.",
            retryable: true,
            headers: [.retryAfter: "\(seconds)"]
        )
    }
    static let recoveryTokenInvalid = Self(
        "RECOVERY_TOKEN_INVALID",
        .unauthorized,
        "This recovery token is wrong or was used already (it is exchanged once): start a new recovery through the backend."
    )
    static let recoveryNotExchanged = Self(
        "RECOVERY_TOKEN_INVALID",
        .unauthorized,
        "No replacement registration was issued for this recovery: exchange the recovery token at POST /v1/client/recoveries/{recoveryAttemptId}/registration first."
    )
    static let recoveryFinalizeByBackend = Self(
        "RECOVERY_FINALIZE_BY_BACKEND",
        .forbidden,
        "This recovery was started by the service's backend, which finalizes it (POST /v1/recoveries/{recoveryAttemptId}/finalize): return to the app or site that sent you the link."
    )
    static let recoveryContinuationInvalid = Self(
        "RECOVERY_TOKEN_INVALID",
        .unauthorized,
        "This continuation token is not the one issued with this recovery's registration data: send the continuationToken it returned."
    )
    static let recoveryAttemptExpired = Self(
        "RECOVERY_ATTEMPT_EXPIRED",
        .gone,
        "This recovery attempt has expired: start a new recovery through the backend."
    )
    static let recoveryAttemptCancelled = Self(
        "RECOVERY_ATTEMPT_CANCELLED",
        .conflict,
        "This recovery attempt was cancelled: start a new recovery through the backend if the person still needs one."
    )
    static func recoveryAttemptConflict(_ message: String) -> Self {
        Self("RECOVERY_ATTEMPT_CONFLICT", .conflict, message)
    }
    static let recoveryIdentityVerificationNotCompleted = Self(
        "RECOVERY_IDV_NOT_COMPLETED",
        .conflict,
        "The person's identity has not been verified for this recovery yet: start it at POST /biometric-passkey/mobile/recovery/{recoveryAttemptId}/idv/start, let the person finish it, then ask again.",
        retryable: true
    )
    static let recoveryMatchFailed = Self(
        "RECOVERY_MATCH_FAILED",
        .forbidden,
        "The face captured does not match the person's enrolled identity: no passkey is created. Start a new recovery only if the person can verify again."
    )
    static let recoveryEvidenceUnavailable = Self(
        "RECOVERY_EBT_UNAVAILABLE",
        .conflict,
        "The identity-verification provider holds no enrolled identity for this user to match the face against, so this account cannot be recovered this way: recover it through your support process."
    )
    static let recoveryRegistrationExpired = Self(
        "RECOVERY_PASSKEY_REGISTRATION_EXPIRED",
        .gone,
        "The time to create the replacement passkey has run out: start a new recovery through the backend."
    )
    static func recoveryRegistrationFailed(_ reason: APIError) -> Self {
        Self(
            "RECOVERY_REGISTRATION_FAILED",
            .badRequest,
            "The replacement passkey did not verify (\(reason.code): \(reason.message))"
        )
    }
    static let recoveryRegistrationSpent = Self(
        "RECOVERY_REGISTRATION_FAILED",
        .badRequest,
        "A replacement passkey for this recovery did not verify already, and the registration data carry one challenge: start a new recovery through the backend."
    )
    static let recoveryRegistrationMismatch = Self(
        "RECOVERY_REGISTRATION_MISMATCH",
        .badRequest,
        "This response was not created for this recovery's registration data: create the passkey with the challenge and user handle it returned."
    )
}
