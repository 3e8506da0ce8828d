import HTTPTypes
import WebAuthn

extension APIError.Code {
    /// `clientData.origin` is not in the allowlist.
    public static let originNotAllowed = Self(rawValue: "ORIGIN_NOT_ALLOWED")
    /// `rpIdHash` is not the SHA-256 of an expected RP ID.
    public static let rpIdMismatch = Self(rawValue: "RP_ID_MISMATCH")
    /// `clientData.type` is not the ceremony's type (`webauthn.create` / `webauthn.get`).
    public static let ceremonyTypeMismatch = Self(rawValue: "CEREMONY_TYPE_MISMATCH")
    /// The UP flag is not set.
    public static let userPresenceRequired = Self(rawValue: "USER_PRESENCE_REQUIRED")
    /// The UV flag is not set but policy requires user verification.
    public static let userVerificationRequired = Self(rawValue: "USER_VERIFICATION_REQUIRED")
    /// The attestation statement format is known but policy does not accept it.
    public static let attestationFormatNotAllowed = Self(rawValue: "ATTESTATION_FORMAT_NOT_ALLOWED")
    /// The attestation statement does not verify (signature, structure or format-specific checks).
    public static let attestationInvalid = Self(rawValue: "ATTESTATION_INVALID")
    /// The authenticator is not trusted by `policy` (its attestation, or its FIDO metadata status).
    public static let authenticatorNotAllowed = Self(rawValue: "AUTHENTICATOR_NOT_ALLOWED")
    /// The assertion's signature, counter or authenticator data does not verify.
    public static let assertionInvalid = Self(rawValue: "ASSERTION_INVALID")
    /// The signature counter went back (`policy.signCount: reject`): the passkey may have been cloned.
    public static let credentialCloneSuspected = Self(rawValue: "CREDENTIAL_CLONE_SUSPECTED")
    /// The credential's algorithm is not among the `pubKeyCredParams` the relying party offered.
    public static let algorithmNotAllowed = Self(rawValue: "ALGORITHM_NOT_ALLOWED")
    /// The passkey is backup eligible (synced) and `policy.allowSyncedCredentials` is off.
    public static let syncedCredentialsNotAllowed = Self(rawValue: "SYNCED_CREDENTIALS_NOT_ALLOWED")
}

extension APIError {
    /// The codes a failed WebAuthn verification step is answered with (besides `SERVICE_UNAVAILABLE` and
    /// `INVALID_REQUEST`).
    static let webAuthn: [Code] = [
        .originNotAllowed, .rpIdMismatch, .ceremonyTypeMismatch, .userPresenceRequired, .userVerificationRequired,
        .attestationFormatNotAllowed, .attestationInvalid, .authenticatorNotAllowed, .assertionInvalid,
        .credentialCloneSuspected, .algorithmNotAllowed, .syncedCredentialsNotAllowed,
    ]

    /// The server's code for a failed WebAuthn verification step.
    init(_ error: WebAuthnError) {
        let code: Code
        switch error.code {
        case .originNotAllowed, .crossOriginNotAllowed, .topOriginNotAllowed: code = .originNotAllowed
        case .rpIDMismatch: code = .rpIdMismatch
        case .ceremonyTypeMismatch: code = .ceremonyTypeMismatch
        case .challengeMismatch: code = .challengeMismatch
        case .userPresenceRequired: code = .userPresenceRequired
        case .userVerificationRequired: code = .userVerificationRequired
        case .attestationFormatNotAllowed: code = .attestationFormatNotAllowed
        case .attestationInvalid, .attestationCertificateInvalid, .attestationUntrusted, .attestationFormatUnsupported,
            .malformedAttestationObject, .attestedCredentialDataMissing:
            code = .attestationInvalid
        case .authenticatorCompromised, .metadataEntryNotFound, .metadataEntryUnusable:
            code = .authenticatorNotAllowed
        case .signatureInvalid, .backupFlagsInvalid, .userHandleMismatch: code = .assertionInvalid
        case .signCountRegression: code = .credentialCloneSuspected
        case .algorithmNotAllowed, .unsupportedAlgorithm, .weakKey, .invalidCOSEKey: code = .algorithmNotAllowed
        case .backupEligibleNotAllowed: code = .syncedCredentialsNotAllowed
        case .metadataStale, .metadataInvalid:
            // The server's own metadata is out of date: nothing the caller sent is wrong.
            self.init(
                .serviceUnavailable,
                .serviceUnavailable,
                "The server's authenticator metadata is out of date, so attested registrations are paused until its operator installs a current FIDO metadata BLOB. Retry later.",
                retryable: true
            )
            return
        default: code = .invalidRequest
        }
        self.init(code, .badRequest, error.reason)
    }
}
