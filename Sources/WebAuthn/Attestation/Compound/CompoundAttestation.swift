import Foundation

/// The `compound` attestation statement format (WebAuthn Level 3 §8.9): an array of statements, each
/// `{fmt, attStmt}`, all of which must verify. It is trusted when any of its statements is trusted.
enum CompoundAttestation {
    static let maximumStatements = 8

    static func verify(
        _ fields: CBORValue,
        authenticatorData: AuthenticatorData,
        credential: AttestedCredentialData,
        clientDataHash: [UInt8],
        policy: AttestationPolicy,
        time: Date
    ) async throws(WebAuthnError) -> VerifiedAttestation {
        guard let items = fields.arrayValue, items.count >= 2, items.count <= maximumStatements else {
            throw WebAuthnError(
                .attestationInvalid,
                "compound attestation: attStmt must be an array of 2 to \(maximumStatements) statements."
            )
        }
        var components = [VerifiedAttestation]()
        for item in items {
            guard let format = item[text: "fmt"]?.textValue, let statement = item[text: "attStmt"],
                statement.mapEntries != nil
            else {
                throw WebAuthnError(
                    .attestationInvalid,
                    "compound attestation: each statement must be a map of text 'fmt' and map 'attStmt'."
                )
            }
            components.append(
                try await AttestationVerification.verify(
                    format: AttestationFormat(rawValue: format),
                    fields: statement,
                    authenticatorData: authenticatorData,
                    credential: credential,
                    clientDataHash: clientDataHash,
                    policy: policy,
                    time: time,
                    nested: true
                )
            )
        }
        let decisive = components.first(where: \.trusted) ?? components[0]
        return VerifiedAttestation(
            format: .compound,
            type: decisive.type,
            trustPath: decisive.trustPath,
            trusted: components.contains(where: \.trusted),
            metadata: decisive.metadata,
            components: components
        )
    }
}
