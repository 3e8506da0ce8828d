import HTTPTypes

extension APIError.Code {
    /// The flow's identity-verification run has not been decided (or, for a step-up, not started); retryable.
    public static let workflowNotCompleted = Self(rawValue: "WORKFLOW_NOT_COMPLETED")
    /// The run declined the person; nothing is created or approved.
    public static let workflowDeclined = Self(rawValue: "WORKFLOW_DECLINED")
    /// A person reviews the run; ask again once it decided.
    public static let workflowUnderReview = Self(rawValue: "WORKFLOW_UNDER_REVIEW")
    /// A run of another flow was brought along; every flow verifies afresh.
    public static let workflowRunReuseForbidden = Self(rawValue: "WORKFLOW_RUN_REUSE_FORBIDDEN")
    /// The run was decided already, or has expired.
    public static let workflowAlreadyDecided = Self(rawValue: "WORKFLOW_ALREADY_DECIDED")
    /// The flow's run was started already, or its start is waiting for the vendor now.
    public static let idvAlreadyStarted = Self(rawValue: "IDV_ALREADY_STARTED")
    /// The vendor could not be reached, answered badly, too slowly (10 s), too much (over 16 KiB) or with a redirect;
    /// retryable.
    public static let identityVerificationUnavailable = Self(rawValue: "IDENTITY_VERIFICATION_UNAVAILABLE")
    /// As many calls to the vendor are in flight as the server allows (16 per process); retry in a few seconds.
    public static let identityVerificationBusy = Self(rawValue: "IDENTITY_VERIFICATION_BUSY")
    /// The vendor's webhook signature is missing or wrong.
    public static let webhookSignatureInvalid = Self(rawValue: "WEBHOOK_SIGNATURE_INVALID")
    /// The vendor's webhook timestamp is missing or more than 5 minutes off.
    public static let webhookTimestampInvalid = Self(rawValue: "WEBHOOK_TIMESTAMP_INVALID")
    /// The vendor's webhook event id was received already.
    public static let webhookEventReplayed = Self(rawValue: "WEBHOOK_EVENT_REPLAYED")
    /// A step-up's challenge was issued already; start a new session.
    public static let challengeRefreshForbidden = Self(rawValue: "CHALLENGE_REFRESH_FORBIDDEN")
    /// A step-up was completed with a passkey outside the allow-list its options gave out.
    public static let stepUpAuthSessionMismatch = Self(rawValue: "STEP_UP_AUTH_SESSION_MISMATCH")
}

/// The codes of identity verification and step-up (DESIGN §3 flows 1 and 3, §5).
extension APIError {
    static let identityVerification: [Code] = [
        .workflowNotCompleted, .workflowDeclined, .workflowUnderReview, .workflowRunReuseForbidden,
        .workflowAlreadyDecided, .idvAlreadyStarted, .identityVerificationUnavailable, .identityVerificationBusy,
        .webhookSignatureInvalid, .webhookTimestampInvalid, .webhookEventReplayed, .challengeRefreshForbidden,
        .stepUpAuthSessionMismatch,
    ]
    static let workflowNotCompleted = Self(
        .workflowNotCompleted,
        .conflict,
        "Identity verification has not been decided yet: let the person finish it, then ask again.",
        retryable: true
    )
    static let workflowNotStarted = Self(
        .workflowNotCompleted,
        .conflict,
        "This session needs identity verification first: start it with POST /biometric-passkey/mobile/step-up/{biometricPasskeySessionId}/idv/start.",
        retryable: true
    )
    static let workflowDeclined = Self(
        .workflowDeclined,
        .forbidden,
        "Identity verification declined this person: no passkey is created and nothing is approved. Start a new attempt only if the person can verify again."
    )
    static let workflowUnderReview = Self(
        .workflowUnderReview,
        .conflict,
        "Identity verification is being reviewed by a person; ask again once the review has decided (it may take a while)."
    )
    static let workflowRunReuseForbidden = Self(
        .workflowRunReuseForbidden,
        .conflict,
        "This identity-verification run belongs to another flow; every flow verifies the person afresh."
    )
    static let workflowAlreadyDecided = Self(
        .workflowAlreadyDecided,
        .conflict,
        "This identity-verification run was decided already (or has expired); its decision stays."
    )
    static let identityVerificationAlreadyStarted = Self(
        .idvAlreadyStarted,
        .conflict,
        "Identity verification was started for this session already; finish that run."
    )
    static let identityVerificationUnavailable = Self(
        .identityVerificationUnavailable,
        .badGateway,
        "The identity-verification provider could not be reached or answered badly; retry in a moment.",
        retryable: true
    )
    static let identityVerificationBusy = Self(
        .identityVerificationBusy,
        .serviceUnavailable,
        "The server is waiting for the identity-verification provider on as many calls as it allows at once; retry in a few seconds.",
        retryable: true
    )
    static func identityVerificationNotConfigured(_ purpose: String) -> Self {
        .invalidRequest(
            "\(purpose) needs identity verification, and this server has none: set identityVerification.provider (simulated or webhook)."
        )
    }
    static let webhookSignatureInvalid = Self(
        .webhookSignatureInvalid,
        .unauthorized,
        "The webhook's X-Passkeys-Signature is missing or does not match: sign 'timestamp.body' with HMAC-SHA256 and the shared secret."
    )
    static let webhookTimestampInvalid = Self(
        .webhookTimestampInvalid,
        .badRequest,
        "The webhook's X-Passkeys-Timestamp is missing or more than 5 minutes away from the server's clock."
    )
    static let webhookEventReplayed = Self(
        .webhookEventReplayed,
        .conflict,
        "This webhook event id was received already; each event is accepted once."
    )
    static let challengeRefreshForbidden = Self(
        .challengeRefreshForbidden,
        .conflict,
        "The challenge of this step-up session was issued already; a step-up signs one challenge. Start a new step-up session."
    )
    static let stepUpAuthSessionMismatch = Self(
        .stepUpAuthSessionMismatch,
        .forbidden,
        "This passkey was not among the ones this step-up session allowed; sign with one of them."
    )
}
