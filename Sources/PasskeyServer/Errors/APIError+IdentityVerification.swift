import HTTPTypes

/// The codes of identity verification and step-up (DESIGN §3 flows 1 and 3, §5).
extension APIError {
    static let identityVerification: [Code] = [
        "WORKFLOW_NOT_COMPLETED", "WORKFLOW_DECLINED", "WORKFLOW_UNDER_REVIEW", "WORKFLOW_RUN_REUSE_FORBIDDEN",
        "WORKFLOW_ALREADY_DECIDED", "IDV_ALREADY_STARTED", "IDENTITY_VERIFICATION_UNAVAILABLE",
        "IDENTITY_VERIFICATION_BUSY", "WEBHOOK_SIGNATURE_INVALID",
        "WEBHOOK_TIMESTAMP_INVALID", "WEBHOOK_EVENT_REPLAYED", "CHALLENGE_REFRESH_FORBIDDEN",
        "STEP_UP_AUTH_SESSION_MISMATCH",
    ]
    static let workflowNotCompleted = Self(
        "WORKFLOW_NOT_COMPLETED",
        .conflict,
        "Identity verification has not been decided yet: let the person finish it, then ask again.",
        retryable: true
    )
    static let workflowNotStarted = Self(
        "WORKFLOW_NOT_COMPLETED",
        .conflict,
        "This session needs identity verification first: start it with POST /biometric-passkey/mobile/step-up/{biometricPasskeySessionId}/idv/start.",
        retryable: true
    )
    static let workflowDeclined = Self(
        "WORKFLOW_DECLINED",
        .forbidden,
        "Identity verification declined this person: no passkey is created and nothing is approved. Start a new attempt only if the person can verify again."
    )
    static let workflowUnderReview = Self(
        "WORKFLOW_UNDER_REVIEW",
        .conflict,
        "Identity verification is being reviewed by a person; ask again once the review has decided (it may take a while)."
    )
    static let workflowRunReuseForbidden = Self(
        "WORKFLOW_RUN_REUSE_FORBIDDEN",
        .conflict,
        "This identity-verification run belongs to another flow; every flow verifies the person afresh."
    )
    static let workflowAlreadyDecided = Self(
        "WORKFLOW_ALREADY_DECIDED",
        .conflict,
        "This identity-verification run was decided already (or has expired); its decision stays."
    )
    static let identityVerificationAlreadyStarted = Self(
        "IDV_ALREADY_STARTED",
        .conflict,
        "Identity verification was started for this session already; finish that run."
    )
    static let identityVerificationUnavailable = Self(
        "IDENTITY_VERIFICATION_UNAVAILABLE",
        .badGateway,
        "The identity-verification provider could not be reached or answered badly; retry in a moment.",
        retryable: true
    )
    static let identityVerificationBusy = Self(
        "IDENTITY_VERIFICATION_BUSY",
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
        "WEBHOOK_SIGNATURE_INVALID",
        .unauthorized,
        "The webhook's X-Passkeys-Signature is missing or does not match: sign 'timestamp.body' with HMAC-SHA256 and the shared secret."
    )
    static let webhookTimestampInvalid = Self(
        "WEBHOOK_TIMESTAMP_INVALID",
        .badRequest,
        "The webhook's X-Passkeys-Timestamp is missing or more than 5 minutes away from the server's clock."
    )
    static let webhookEventReplayed = Self(
        "WEBHOOK_EVENT_REPLAYED",
        .conflict,
        "This webhook event id was received already; each event is accepted once."
    )
    static let challengeRefreshForbidden = Self(
        "CHALLENGE_REFRESH_FORBIDDEN",
        .conflict,
        "The challenge of this step-up session was issued already; a step-up signs one challenge. Start a new step-up session."
    )
    static let stepUpAuthSessionMismatch = Self(
        "STEP_UP_AUTH_SESSION_MISMATCH",
        .forbidden,
        "This passkey was not among the ones this step-up session allowed; sign with one of them."
    )
}
