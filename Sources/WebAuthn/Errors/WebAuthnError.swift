/// The one error type of the `WebAuthn` module.
///
/// Branch on ``code``; it is stable across releases. ``reason`` explains, in words meant for the developer
/// who reads a log, what failed and what to do. Two errors are equal when their codes are equal.
public struct WebAuthnError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable identifier of a failure: an `UPPER_SNAKE` string that never changes meaning.
    public let code: Code
    /// What failed, and what to do about it.
    public let reason: String
    /// Where the error was raised, for debugging.
    public let file: String
    public let line: UInt

    public init(_ code: Code, _ reason: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { "\(code.rawValue): \(reason)" }
}

extension WebAuthnError {
    /// A stable error code. A struct, not an enum, so that new codes can be added without breaking callers.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
    }
}

extension WebAuthnError.Code {
    // MARK: Input that cannot be decoded
    /// Input is larger than the configured limit.
    public static let inputTooLarge = Self(rawValue: "INPUT_TOO_LARGE")
    /// A binary field is not unpadded base64url.
    public static let invalidBase64URL = Self(rawValue: "INVALID_BASE64URL")
    /// JSON input (a credential or options) does not have the Level 3 shape.
    public static let malformedJSON = Self(rawValue: "MALFORMED_JSON")
    /// CBOR is malformed, not in the CTAP2 canonical form, or exceeds a limit.
    public static let malformedCBOR = Self(rawValue: "MALFORMED_CBOR")
    /// `clientDataJSON` is not valid JSON of the `CollectedClientData` shape.
    public static let malformedClientData = Self(rawValue: "MALFORMED_CLIENT_DATA")
    /// Authenticator data is truncated, has trailing bytes or inconsistent flags.
    public static let malformedAuthenticatorData = Self(rawValue: "MALFORMED_AUTHENTICATOR_DATA")
    /// The attestation object is not a map of `fmt`, `attStmt` and `authData`.
    public static let malformedAttestationObject = Self(rawValue: "MALFORMED_ATTESTATION_OBJECT")

    // MARK: Keys and signatures
    /// The COSE key is malformed or its parameters are inconsistent (kty/crv/alg, point not on the curve).
    public static let invalidCOSEKey = Self(rawValue: "INVALID_COSE_KEY")
    /// The COSE algorithm is not one this library verifies, or policy does not allow it.
    public static let unsupportedAlgorithm = Self(rawValue: "UNSUPPORTED_ALGORITHM")
    /// An RSA key is shorter than 2048 bits.
    public static let weakKey = Self(rawValue: "WEAK_KEY")
    /// The credential's algorithm is not among the `pubKeyCredParams` the relying party offered.
    public static let algorithmNotAllowed = Self(rawValue: "ALGORITHM_NOT_ALLOWED")
    /// The assertion signature does not verify with the credential public key.
    public static let signatureInvalid = Self(rawValue: "SIGNATURE_INVALID")

    // MARK: Client data and relying-party checks
    /// The credential `type` is not `public-key`.
    public static let credentialTypeMismatch = Self(rawValue: "CREDENTIAL_TYPE_MISMATCH")
    /// `clientData.type` is not the ceremony's type (`webauthn.create` / `webauthn.get`).
    public static let ceremonyTypeMismatch = Self(rawValue: "CEREMONY_TYPE_MISMATCH")
    /// `clientData.challenge` is not the challenge the relying party issued.
    public static let challengeMismatch = Self(rawValue: "CHALLENGE_MISMATCH")
    /// `clientData.origin` is not in the allowlist.
    public static let originNotAllowed = Self(rawValue: "ORIGIN_NOT_ALLOWED")
    /// The ceremony ran in a cross-origin iframe and policy does not allow it.
    public static let crossOriginNotAllowed = Self(rawValue: "CROSS_ORIGIN_NOT_ALLOWED")
    /// `clientData.topOrigin` is missing or not allowed.
    public static let topOriginNotAllowed = Self(rawValue: "TOP_ORIGIN_NOT_ALLOWED")
    /// `clientData.tokenBinding` has an invalid status.
    public static let tokenBindingInvalid = Self(rawValue: "TOKEN_BINDING_INVALID")
    /// `rpIdHash` is not the SHA-256 of an expected RP ID.
    public static let rpIDMismatch = Self(rawValue: "RP_ID_MISMATCH")
    /// The UP flag is not set.
    public static let userPresenceRequired = Self(rawValue: "USER_PRESENCE_REQUIRED")
    /// The UV flag is not set but policy requires user verification.
    public static let userVerificationRequired = Self(rawValue: "USER_VERIFICATION_REQUIRED")
    /// BS is set while BE is not, or BE changed since registration.
    public static let backupFlagsInvalid = Self(rawValue: "BACKUP_FLAGS_INVALID")
    /// Policy does not accept backup-eligible (synced) credentials.
    public static let backupEligibleNotAllowed = Self(rawValue: "BACKUP_ELIGIBLE_NOT_ALLOWED")

    // MARK: Credentials
    /// `id` and `rawId` differ, the authenticator data names another credential,
    /// or the credential is not the one the relying party expected.
    public static let credentialIDMismatch = Self(rawValue: "CREDENTIAL_ID_MISMATCH")
    /// The credential id is longer than 1023 bytes.
    public static let credentialIDTooLong = Self(rawValue: "CREDENTIAL_ID_TOO_LONG")
    /// A registration response carries no attested credential data.
    public static let attestedCredentialDataMissing = Self(rawValue: "ATTESTED_CREDENTIAL_DATA_MISSING")
    /// `userHandle` is missing where required, or names another user.
    public static let userHandleMismatch = Self(rawValue: "USER_HANDLE_MISMATCH")
    /// The signature counter did not increase: the authenticator may have been cloned.
    public static let signCountRegression = Self(rawValue: "SIGN_COUNT_REGRESSION")

    // MARK: Attestation
    /// The attestation statement format is not one this library knows.
    public static let attestationFormatUnsupported = Self(rawValue: "ATTESTATION_FORMAT_UNSUPPORTED")
    /// The attestation statement format is known but policy does not accept it.
    public static let attestationFormatNotAllowed = Self(rawValue: "ATTESTATION_FORMAT_NOT_ALLOWED")
    /// The attestation statement does not verify (signature, structure or format-specific checks).
    public static let attestationInvalid = Self(rawValue: "ATTESTATION_INVALID")
    /// An attestation certificate does not meet its format's requirements.
    public static let attestationCertificateInvalid = Self(rawValue: "ATTESTATION_CERTIFICATE_INVALID")
    /// The attestation certificate chain does not verify to a configured trust anchor.
    public static let attestationUntrusted = Self(rawValue: "ATTESTATION_UNTRUSTED")

    // MARK: FIDO metadata
    /// A FIDO Metadata Service BLOB as a whole is unusable: too large, not a compact JWS, its signature or signing chain
    /// does not verify to the given roots, or its payload's own members are malformed or over a limit. (A problem in
    /// one entry only sets that entry aside: see `METADATA_ENTRY_UNUSABLE`.)
    public static let metadataInvalid = Self(rawValue: "METADATA_INVALID")
    /// A FIDO Metadata Service BLOB's `nextUpdate` has passed, and stale metadata is not allowed.
    public static let metadataStale = Self(rawValue: "METADATA_STALE")
    /// The FIDO metadata has no entry for an attested authenticator, and policy requires one.
    public static let metadataEntryNotFound = Self(rawValue: "METADATA_ENTRY_NOT_FOUND")
    /// The FIDO metadata lists an attested authenticator's model, but no entry for it can be used: the model is listed
    /// by more than one entry, or its entry is malformed. The model is refused until the BLOB is corrected.
    public static let metadataEntryUnusable = Self(rawValue: "METADATA_ENTRY_UNUSABLE")
    /// The FIDO metadata's latest status report for the authenticator's model is a compromise (such as
    /// `ATTESTATION_KEY_COMPROMISE`) or `REVOKED`.
    public static let authenticatorCompromised = Self(rawValue: "AUTHENTICATOR_COMPROMISED")

    // MARK: Options
    /// Options given to a builder are invalid (empty challenge, bad RP ID, …).
    public static let invalidOptions = Self(rawValue: "INVALID_OPTIONS")

    /// A step of the specification that this library deliberately does not implement.
    public static let unsupportedFeature = Self(rawValue: "UNSUPPORTED_FEATURE")

    /// Every code this module defines, for documentation and exhaustive tests.
    public static let all: [Self] = [
        .inputTooLarge, .invalidBase64URL, .malformedJSON, .malformedCBOR, .malformedClientData,
        .malformedAuthenticatorData, .malformedAttestationObject, .invalidCOSEKey, .unsupportedAlgorithm,
        .weakKey, .algorithmNotAllowed, .signatureInvalid, .credentialTypeMismatch, .ceremonyTypeMismatch,
        .challengeMismatch, .originNotAllowed, .crossOriginNotAllowed, .topOriginNotAllowed,
        .tokenBindingInvalid, .rpIDMismatch, .userPresenceRequired, .userVerificationRequired,
        .backupFlagsInvalid, .backupEligibleNotAllowed, .credentialIDMismatch, .credentialIDTooLong,
        .attestedCredentialDataMissing, .userHandleMismatch, .signCountRegression,
        .attestationFormatUnsupported, .attestationFormatNotAllowed, .attestationInvalid,
        .attestationCertificateInvalid, .attestationUntrusted, .metadataInvalid, .metadataStale,
        .metadataEntryNotFound, .metadataEntryUnusable, .authenticatorCompromised, .invalidOptions, .unsupportedFeature,
    ]
}
