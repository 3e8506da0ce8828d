import Foundation
import X509

/// Runs the verification procedure of the statement's format and assesses trust (§7.1 steps 20–23).
enum AttestationVerification {
    static func verifier(for format: AttestationFormat) -> (any AttestationStatementVerifier.Type)? {
        switch format {
        case .none: NoneAttestation.self
        case .packed: PackedAttestation.self
        case .fidoU2F: FIDOU2FAttestation.self
        case .apple: AppleAttestation.self
        case .androidKey: AndroidKeyAttestation.self
        case .androidSafetyNet: AndroidSafetyNetAttestation.self
        case .tpm: TPMAttestation.self
        default: nil
        }
    }

    static func verify(
        format: AttestationFormat,
        fields: CBORValue,
        authenticatorData: AuthenticatorData,
        credential: AttestedCredentialData,
        clientDataHash: [UInt8],
        policy: AttestationPolicy,
        time: Date,
        nested: Bool = false
    ) async throws(WebAuthnError) -> VerifiedAttestation {
        // §7.1 step 20: a USASCII case-sensitive match against the supported formats.
        guard format == .compound || verifier(for: format) != nil else {
            throw WebAuthnError(
                .attestationFormatUnsupported,
                "The attestation format '\(format.rawValue)' is not supported; supported formats are \(AttestationFormat.supported.map(\.rawValue))."
            )
        }
        guard policy.allowedFormats.contains(format) else {
            throw WebAuthnError(
                .attestationFormatNotAllowed,
                "The attestation format '\(format.rawValue)' is not accepted by this relying party's attestation policy."
            )
        }
        if format == .compound {
            guard !nested else {
                throw WebAuthnError(
                    .attestationInvalid,
                    "compound attestation: a compound statement may not contain another compound statement."
                )
            }
            return try await CompoundAttestation.verify(
                fields,
                authenticatorData: authenticatorData,
                credential: credential,
                clientDataHash: clientDataHash,
                policy: policy,
                time: time
            )
        }
        let statement = AttestationStatement(
            format: format,
            fields: fields,
            authenticatorData: authenticatorData,
            credential: credential,
            clientDataHash: clientDataHash,
            policy: policy,
            time: time
        )
        // §7.1 step 21: the format's verification procedure.
        guard let verifier = verifier(for: format) else { preconditionFailure("checked above") }
        let result = try verifier.verify(statement)
        // §7.1 step 22: the trust anchors: the format's, and those of the authenticator's model in FIDO metadata
        // (which also refuses compromised models).
        let entry = try policy.metadata?.entry(
            trustPath: result.trustPath,
            aaguid: credential.aaguid,
            format: format,
            time: time
        )
        let modelAnchors = entry?.attestationRootCertificates ?? []
        // §7.1 step 23: the assessment of the trust path.
        let anchor = try await TrustEvaluation.evaluate(
            result.trustPath,
            format: format,
            anchors: (policy.trustAnchors[format] ?? []) + modelAnchors,
            time: time
        )
        return VerifiedAttestation(
            format: format,
            type: result.type,
            trustPath: result.trustPath,
            trusted: anchor != nil,
            metadata: anchor.map(modelAnchors.contains) == true ? entry : nil,
            components: []
        )
    }
}
