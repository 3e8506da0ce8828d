@testable import WebAuthn
import Foundation
import Testing

/// Expects `TPMAttestation.verify` to reject `statement` with `code`, for a reason that mentions `fragment`.
func expectTPMRejection(
    _ statement: AttestationStatement, _ code: WebAuthnError.Code, mentioning fragment: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let error = #expect(throws: WebAuthnError.self, sourceLocation: sourceLocation) {
        try TPMAttestation.verify(statement)
    }
    guard let error else { return }
    #expect(error.code == code, "got \(error)", sourceLocation: sourceLocation)
    #expect(error.reason.localizedCaseInsensitiveContains(fragment), "'\(error.reason)' does not mention '\(fragment)'", sourceLocation: sourceLocation)
}

/// Expects `TPMAttestation.verify` to accept `statement` as AttCA with the statement's x5c as trust path.
func expectTPMAcceptance(_ statement: AttestationStatement, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let result = try TPMAttestation.verify(statement)
        #expect(result.type == .attCA, sourceLocation: sourceLocation)
        #expect(result.trustPath.count == statement.fields[text: "x5c"]?.arrayValue?.count, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected the statement to verify: \(error)", sourceLocation: sourceLocation)
    }
}
