/// The `android-safetynet` attestation statement format (WebAuthn §8.5).
enum AndroidSafetyNetAttestation: AttestationStatementVerifier {
    static let format = AttestationFormat.androidSafetyNet
    static func verify(_ statement: AttestationStatement) throws(WebAuthnError) -> AttestationStatementResult {
        throw WebAuthnError(.unsupportedFeature, "android-safetynet attestation is not implemented yet.")
    }
}
