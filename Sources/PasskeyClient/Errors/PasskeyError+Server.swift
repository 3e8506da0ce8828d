extension PasskeyError.Code {
    /// Codes our server answers with that have no SDK meaning beyond their own; they are kept as they are.
    public static let resultAlreadyRedeemed: Self = "RESULT_ALREADY_REDEEMED"
    public static let invalidResultToken: Self = "INVALID_RESULT_TOKEN"
    public static let authenticationNotCompleted: Self = "AUTHENTICATION_NOT_COMPLETED"

    /// The SDK code for an error code of the server (DESIGN §3). Codes this SDK does not know — from a newer
    /// server — are kept as they are when they look like codes (`UPPER_SNAKE`), so an app can still branch on
    /// them; anything else becomes ``serverError``.
    public init(serverCode: String) {
        if let known = Self.serverCodes[serverCode] {
            self = known
        } else if Self.keptPrefixes.contains(where: serverCode.hasPrefix) || Self.looksLikeCode(serverCode) {
            self.init(rawValue: serverCode)
        } else {
            self = .serverError
        }
    }

    /// Whether the SDK maps `serverCode` deliberately (not through the fallback for unknown codes).
    public static func isKnownServerCode(_ serverCode: String) -> Bool {
        serverCodes[serverCode] != nil || keptPrefixes.contains(where: serverCode.hasPrefix)
    }

    /// Families of server codes that the SDK passes through unchanged.
    static let keptPrefixes = ["HANDOFF_", "RECOVERY_", "WORKFLOW_", "STEP_UP_"]

    /// Every server code of DESIGN §3 and of the server's flows, and the SDK code it becomes.
    static let serverCodes: [String: Self] = [
        "INVALID_REQUEST": .invalidInput,
        "PAYLOAD_TOO_LARGE": .invalidInput,
        "UNAUTHENTICATED": .invalidOrExpiredSession,
        "FORBIDDEN": .authContextMismatch,
        "NOT_FOUND": .notFound,
        "METHOD_NOT_ALLOWED": .serverError,
        "RATE_LIMITED": .rateLimited,
        "INTERNAL_ERROR": .serverError,
        "SERVICE_UNAVAILABLE": .serverError,
        "ORIGIN_NOT_ALLOWED": .relyingPartyMismatch,
        "RP_ID_MISMATCH": .relyingPartyMismatch,
        "CEREMONY_TYPE_MISMATCH": .authContextMismatch,
        "CHALLENGE_MISMATCH": .authContextMismatch,
        "CHALLENGE_EXPIRED": .challengeExpired,
        "CHALLENGE_CONSUMED": .challengeConsumed,
        "CHALLENGE_REFRESH_FORBIDDEN": .challengeRefreshForbidden,
        "ATTESTATION_INVALID": .verificationFailed,
        "ASSERTION_INVALID": .verificationFailed,
        "USER_PRESENCE_REQUIRED": .verificationFailed,
        "ATTESTATION_FORMAT_NOT_ALLOWED": .authenticatorNotAllowed,
        "ALGORITHM_NOT_ALLOWED": .authenticatorNotAllowed,
        "SYNCED_CREDENTIALS_NOT_ALLOWED": .authenticatorNotAllowed,
        "AUTHENTICATOR_NOT_ALLOWED": .authenticatorNotAllowed,
        "USER_VERIFICATION_REQUIRED": .userVerificationRequired,
        "CREDENTIAL_NOT_FOUND": .passkeyNotFound,
        "NO_ACTIVE_CREDENTIALS": .passkeyNotFound,
        "CREDENTIAL_INACTIVE": .passkeyRevoked,
        "CREDENTIAL_USE_CONFLICT": .challengeConsumed,
        "CREDENTIAL_ALREADY_REGISTERED": .passkeyAlreadyExists,
        "CREDENTIAL_CLONE_SUSPECTED": .credentialCloneSuspected,
        "MAX_CREDENTIALS_REACHED": .maxCredentialsReached,
        "CREDENTIAL_NAME_INVALID": .credentialNameInvalid,
        "CREDENTIAL_NAME_HTML": .credentialNameInvalid,
        "CREDENTIAL_NAME_DUPLICATE": .credentialNameDuplicate,
        "REGISTRATION_ATTEMPT_CONFLICT": .registrationAttemptConflict,
        "REGISTRATION_ATTEMPT_EXPIRED": .registrationAttemptExpired,
        "RESERVATION_EXPIRED": .reservationExpired,
        "REGISTRATION_ATTEMPT_CANCELLED": .registrationAttemptCancelled,
        "REGISTRATION_ATTEMPT_CLEANED_UP": .registrationAttemptCleanedUp,
        "IDP_COMMIT_FAILED": .idpCommitFailed,
        // The backend API's own refusals (finalize token, Idempotency-Key); an app meets them only by calling it.
        "FINALIZE_TOKEN_INVALID": .registrationAttemptConflict,
        "IDEMPOTENT_REPLAY": .serverError,
        // The app's own server holds an API key without the scope for what it asked: an operator's fix.
        "INSUFFICIENT_SCOPE": .serverError,
        "INVALID_OR_EXPIRED_SESSION": .invalidOrExpiredSession,
        // The flow was ended by a reset of the user's passkeys: as for an expired session, start a new one.
        "FLOW_ENDED": .invalidOrExpiredSession,
        "AUTH_CONTEXT_MISMATCH": .authContextMismatch,
        "RESULT_ALREADY_REDEEMED": .resultAlreadyRedeemed,
        "INVALID_RESULT_TOKEN": .invalidResultToken,
        "AUTHENTICATION_NOT_COMPLETED": .authenticationNotCompleted,
        "STEP_UP_CREDENTIAL_USER_MISMATCH": .stepUpCredentialUserMismatch,
        "STEP_UP_AUTH_SESSION_MISMATCH": .stepUpAuthSessionMismatch,
        "IDV_ALREADY_STARTED": .identityVerificationAlreadyStarted,
        // Too many identity-verification starts in flight on the server: try again in a moment.
        "IDENTITY_VERIFICATION_BUSY": .rateLimited,
        // The backend's transaction text holds what the person would not see as signed: the backend must change it.
        "TRANSACTION_TEXT_INVALID": .invalidInput,
        "WORKFLOW_NOT_COMPLETED": .workflowNotCompleted,
        "WORKFLOW_DECLINED": .workflowDeclined,
        "WORKFLOW_UNDER_REVIEW": .workflowUnderReview,
        "WORKFLOW_RUN_REUSE_FORBIDDEN": .workflowRunReuseForbidden,
        // The server's web pages only; an app meets them if it calls those pages' endpoints.
        "CSRF_TOKEN_INVALID": .invalidOrExpiredSession,
        "SIGN_IN_REQUIRED": .invalidOrExpiredSession,
        "USER_NAME_TAKEN": .invalidInput,
        "DEMO_ACCOUNT_REQUIRED": .authenticatorNotAllowed,
        // The identity-verification vendor's own endpoint; an app meets them only through a misconfigured server.
        "IDENTITY_VERIFICATION_UNAVAILABLE": .serverError,
        "WEBHOOK_SIGNATURE_INVALID": .serverError,
        "WEBHOOK_TIMESTAMP_INVALID": .serverError,
        "WEBHOOK_EVENT_REPLAYED": .serverError,
        "OPERATOR_REQUIRED": .authenticatorNotAllowed,
        // The operator console's and the demo's own refusals; an app meets them only by calling the pages.
        "CONSOLE_PASSKEY_REQUIRED": .authenticatorNotAllowed,
        "CONSOLE_ENROLMENT_FORBIDDEN": .authenticatorNotAllowed,
        "OPERATOR_ACCOUNT_RESTRICTED": .authenticatorNotAllowed,
        // A token session ended (expired, revoked, a reused refresh token, or never issued): the user signs in again.
        // ``PasskeyError/serverCode`` keeps which; ``TokenSession`` forgets the stored session on any of them.
        "REFRESH_TOKEN_INVALID": .invalidOrExpiredSession,
        "REFRESH_TOKEN_EXPIRED": .invalidOrExpiredSession,
        "REFRESH_TOKEN_REUSED": .invalidOrExpiredSession,
        "SESSION_REVOKED": .invalidOrExpiredSession,
    ]

    private static func looksLikeCode(_ text: String) -> Bool {
        guard (1...64).contains(text.utf8.count), let first = text.utf8.first, (0x41...0x5A).contains(first) else {
            return false
        }
        return text.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }
}

extension PasskeyError {
    /// The error for a server's JSON error body (`{"error": {"code", "message", "retryable", "requestId"}}`),
    /// with the SDK code mapped from the server's and everything the server said kept.
    init(serverCode: String, message: String, retryable: Bool?, httpStatus: Int, requestId: String?) {
        let code = Code(serverCode: serverCode)
        self.init(
            code,
            message,
            isRetryable: Code.neverRetryableRecoveryCodes.contains(code) ? false : retryable,
            serverCode: serverCode,
            httpStatus: httpStatus,
            requestId: requestId
        )
    }

    /// The error for an HTTP failure without a JSON error body (a proxy's error page, an empty answer).
    init(httpStatus: Int, requestId: String?) {
        let code: Code
        switch httpStatus {
        case 401: code = .invalidOrExpiredSession
        case 404: code = .notFound
        case 408, 504: code = .timeout
        case 429: code = .rateLimited
        default: code = .serverError
        }
        self.init(
            code,
            "The server answered HTTP \(httpStatus) without an error body; check that serverBaseURL points at the passkey server.",
            isRetryable: httpStatus >= 500 || code.isRetryableByDefault,
            httpStatus: httpStatus,
            requestId: requestId
        )
    }
}
