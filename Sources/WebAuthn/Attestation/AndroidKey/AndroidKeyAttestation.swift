/// The `android-key` attestation statement format (WebAuthn §8.4).
enum AndroidKeyAttestation: AttestationStatementVerifier {
    static let format = AttestationFormat.androidKey
    static func verify(_ statement: AttestationStatement) throws(WebAuthnError) -> AttestationStatementResult {
        throw WebAuthnError(.unsupportedFeature, "android-key attestation is not implemented yet.")
    }
}
