@testable import WebAuthn

/// Corpus cases where this verifier deliberately disagrees with the source library, and why.
enum ConformanceDeviations {
    /// The fixture's `id`/`rawId` is a placeholder, not the credential id in its authenticator data: the source
    /// test checks only the attestation statement, and its library does not bind `rawId` to authenticator data.
    /// We do (a required check), so the case as recorded must be rejected; with `id`/`rawId` set to the
    /// authenticator data's credential id it must give the recorded outcome.
    static let placeholderCredentialID: [String: String] = [
        "026-swa-packed-verify-packed-ec2-attestation.json":
            "rawId is the placeholder \"bbb\" (not even canonical base64url)",
        "027-swa-packed-verify-packed-x5c-attestation.json":
            "rawId is the placeholder \"aaaaaaaaaaaaaaaaaaaaa\" (not canonical base64url)",
        "082-gw-apple-appletestresponse.json": "rawId belongs to another response than the attestation object",
    ]

    /// Cases whose source test relaxed a check through configuration, and the same relaxation expressed in our
    /// policy. 080: the source test turns SafetyNet's timestamp check off; its JWS was issued 52 days before the
    /// verification time, so it is run with `safetyNetMaximumAge` widened to 60 days (default: 60 seconds).
    static let policyAdjustments: [String: @Sendable (inout AttestationPolicy) -> Void] = [
        "080-swa-android-safetynet-verify-android-safetynet-attestation.json": {
            $0.safetyNetMaximumAge = 60 * 24 * 3600
        }
    ]

    /// The case's response with `id` and `rawId` replaced by the credential id in its authenticator data.
    static func repairCredentialID(_ response: JSONValue) throws -> JSONValue {
        guard case .object(var credential) = response, case .object(let inner)? = credential["response"],
            case .string(let attestationObject)? = inner["attestationObject"]
        else { return response }
        let object = try AttestationObject(bytes: try Base64URL.decode(attestationObject))
        let id = Base64URL.encode(object.authenticatorData.attestedCredentialData?.credentialID ?? [])
        credential["id"] = .string(id)
        credential["rawId"] = .string(id)
        return .object(credential)
    }

    /// The cases the corpus marks `skip` (its README's skip list says why); a new one fails the tests.
    static let skipped: Set<String> = [
        "024-pyw-android-safetynet-verify-attestation-android-safetynet.json",
        "055-swa-assertion-verify-tpm-assertion.json",
        "062-swa-assertion-return-authenticator-extension-output.json",
        "087-gw-android-safetynet-safetynettestresponse.json",
    ]

    /// For every case the corpus expects to fail: the error code that says why, so a case cannot pass by
    /// failing for another reason.
    static let rejectionCodes: [String: WebAuthnError.Code] = [
        "001-pyw-not_real_fmt-raises-exception-on-unsupported-attestation-type.json": .attestationFormatUnsupported,
        "002-pyw-packed-raises-when-root-cert-invalid-for-response.json": .attestationUntrusted,
        "011-pyw-fido-u2f-verify-attestation-with-unsupported-token-binding-.json": .tokenBindingInvalid,
        "018-pyw-assertion-raises-exception-on-incorrect-public-key.json": .signatureInvalid,
        "019-pyw-assertion-raises-exception-on-uv-required-but-false.json": .userVerificationRequired,
        "030-swa-none-throw-when-response-challenge-is-not-expected-valu.json": .challengeMismatch,
        "031-swa-none-throw-when-response-origin-is-not-expected-value.json": .originNotAllowed,
        "032-swa-none-throw-when-response-type-is-not-expected-value.json": .ceremonyTypeMismatch,
        "033-swa-none-throw-when-response-type-is-not-in-list-of-expecte.json": .ceremonyTypeMismatch,
        "039-swa-none-throw-an-error-if-origin-not-in-list-of-expected-o.json": .originNotAllowed,
        "041-swa-none-throw-an-error-if-rp-id-not-in-list-of-possible-rp.json": .rpIDMismatch,
        "047-swa-android-safetynet-enforce-cts-check-by-default.json": .attestationInvalid,
        "051-swa-assertion-throw-when-response-challenge-is-not-expected-valu.json": .challengeMismatch,
        "052-swa-assertion-throw-when-response-origin-is-not-expected-value.json": .originNotAllowed,
        "053-swa-assertion-throw-error-if-previous-counter-value-is-not-less-.json": .signCountRegression,
        "057-swa-assertion-throw-an-error-if-origin-not-in-list-of-expected-o.json": .originNotAllowed,
        "059-swa-assertion-throw-an-error-if-rp-id-not-in-list-of-possible-rp.json": .rpIDMismatch,
        "060-swa-assertion-throw-an-error-if-type-not-the-expected-type.json": .ceremonyTypeMismatch,
        "061-swa-assertion-throw-an-error-if-type-not-in-list-of-expected-typ.json": .ceremonyTypeMismatch,
        "071-swa-packed-fail-if-id-fido-gen-ce-aaguid-extension-is-present.json": .attestationCertificateInvalid,
        "079-swa-tpm-fail-if-id-fido-gen-ce-aaguid-extension-is-present.json": .attestationCertificateInvalid,
        "094-gw-none-spec-reg-nonees256crossoriginnotallowed.json": .crossOriginNotAllowed,
        "095-gw-none-spec-reg-nonees256toporiginnotallowed.json": .crossOriginNotAllowed,
        "103-gw-android-key-spec-reg-androidkeyes256.json": .attestationInvalid,
        "108-gw-assertion-spec-auth-nonees256crossoriginnotallowed.json": .crossOriginNotAllowed,
        "109-gw-assertion-spec-auth-nonees256toporigin.json": .crossOriginNotAllowed,
    ]
}
