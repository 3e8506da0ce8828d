import HTTPTypes

extension APIError.Code {
    /// The backend cancelled this registration attempt (`POST /v1/registrations/{id}/cancel`) before it completed;
    /// nothing can be done with it any more. Create a new attempt.
    public static let registrationAttemptCancelled = Self(rawValue: "REGISTRATION_ATTEMPT_CANCELLED")
    /// The attempt was over and has been removed by the purge; it is answered so (rather than `NOT_FOUND`) for as long
    /// as a client could still hold its id. Create a new attempt.
    public static let registrationAttemptCleanedUp = Self(rawValue: "REGISTRATION_ATTEMPT_CLEANED_UP")
    /// The `finalizeToken` of a finalize or abort is missing or is not the one `complete` returned for this attempt.
    public static let finalizeTokenInvalid = Self(rawValue: "FINALIZE_TOKEN_INVALID")
    /// The backend aborted the attempt because its own identity provider refused the new passkey
    /// (`reason: "IDP_COMMIT_FAILED"`); the passkey was removed. Start the enrolment again.
    public static let idpCommitFailed = Self(rawValue: "IDP_COMMIT_FAILED")
}

/// The codes of the registration attempt's lifecycle (DESIGN §3 flow 1): cancelled, cleaned up, and the explicit
/// finalize's token and abort reason.
extension APIError {
    static let registration: [Code] = [
        .registrationAttemptCancelled, .registrationAttemptCleanedUp, .finalizeTokenInvalid, .idpCommitFailed,
    ]
    static let registrationAttemptCancelled = Self(
        .registrationAttemptCancelled,
        .gone,
        "This registration attempt was cancelled by the backend; nothing can be done with it. Create a new attempt."
    )
    static let registrationAttemptCleanedUp = Self(
        .registrationAttemptCleanedUp,
        .gone,
        "This registration attempt was over and has been cleaned up; create a new attempt."
    )
    static let finalizeTokenInvalid = Self(
        .finalizeTokenInvalid,
        .forbidden,
        "Send the finalizeToken that completing this attempt returned to the app, as {\"finalizeToken\": \"…\"}."
    )
    static let idpCommitFailed = Self(
        .idpCommitFailed,
        .conflict,
        "The app's identity provider refused this passkey and the backend aborted the attempt; the passkey was removed. Start the enrolment again."
    )
}
