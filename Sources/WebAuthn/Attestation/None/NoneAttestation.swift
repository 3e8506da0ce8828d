/// The `none` attestation statement format (WebAuthn §8.7): an empty statement, no attestation.
enum NoneAttestation: AttestationStatementVerifier {
    static let format = AttestationFormat.none

    static func verify(_ statement: AttestationStatement) throws(WebAuthnError) -> AttestationStatementResult {
        guard statement.fields.mapEntries?.isEmpty == true else {
            throw statement.fail("the statement must be an empty map.")
        }
        return AttestationStatementResult(type: .none, trustPath: [])
    }
}
