/// The `tpm` attestation statement format (WebAuthn §8.3).
enum TPMAttestation: AttestationStatementVerifier {
    static let format = AttestationFormat.tpm
    static func verify(_ statement: AttestationStatement) throws(WebAuthnError) -> AttestationStatementResult {
        throw WebAuthnError(.unsupportedFeature, "tpm attestation is not implemented yet.")
    }
}
