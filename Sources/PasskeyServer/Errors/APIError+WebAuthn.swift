import HTTPTypes
import WebAuthn

extension APIError {
    /// The codes a failed WebAuthn verification step is answered with (besides `SERVICE_UNAVAILABLE` and
    /// `INVALID_REQUEST`).
    static let webAuthn: [Code] = [
        "ORIGIN_NOT_ALLOWED", "RP_ID_MISMATCH", "CEREMONY_TYPE_MISMATCH", "USER_PRESENCE_REQUIRED",
        "USER_VERIFICATION_REQUIRED", "ATTESTATION_FORMAT_NOT_ALLOWED", "ATTESTATION_INVALID",
        "AUTHENTICATOR_NOT_ALLOWED",
        "ASSERTION_INVALID", "CREDENTIAL_CLONE_SUSPECTED", "ALGORITHM_NOT_ALLOWED", "SYNCED_CREDENTIALS_NOT_ALLOWED",
    ]

    /// The server's code for a failed WebAuthn verification step.
    init(_ error: WebAuthnError) {
        let code: Code
        switch error.code {
        case .originNotAllowed, .crossOriginNotAllowed, .topOriginNotAllowed: code = "ORIGIN_NOT_ALLOWED"
        case .rpIDMismatch: code = "RP_ID_MISMATCH"
        case .ceremonyTypeMismatch: code = "CEREMONY_TYPE_MISMATCH"
        case .challengeMismatch: code = "CHALLENGE_MISMATCH"
        case .userPresenceRequired: code = "USER_PRESENCE_REQUIRED"
        case .userVerificationRequired: code = "USER_VERIFICATION_REQUIRED"
        case .attestationFormatNotAllowed: code = "ATTESTATION_FORMAT_NOT_ALLOWED"
        case .attestationInvalid, .attestationCertificateInvalid, .attestationUntrusted, .attestationFormatUnsupported,
            .malformedAttestationObject, .attestedCredentialDataMissing:
            code = "ATTESTATION_INVALID"
        case .authenticatorCompromised, .metadataEntryNotFound, .metadataEntryUnusable:
            code = "AUTHENTICATOR_NOT_ALLOWED"
        case .signatureInvalid, .backupFlagsInvalid, .userHandleMismatch: code = "ASSERTION_INVALID"
        case .signCountRegression: code = "CREDENTIAL_CLONE_SUSPECTED"
        case .algorithmNotAllowed, .unsupportedAlgorithm, .weakKey, .invalidCOSEKey: code = "ALGORITHM_NOT_ALLOWED"
        case .backupEligibleNotAllowed: code = "SYNCED_CREDENTIALS_NOT_ALLOWED"
        case .metadataStale, .metadataInvalid:
            // The server's own metadata is out of date: nothing the caller sent is wrong.
            self.init(
                "SERVICE_UNAVAILABLE",
                .serviceUnavailable,
                "The server's authenticator metadata is out of date, so attested registrations are paused until its operator installs a current FIDO metadata BLOB. Retry later.",
                retryable: true
            )
            return
        default: code = "INVALID_REQUEST"
        }
        self.init(code, .badRequest, error.reason)
    }
}
