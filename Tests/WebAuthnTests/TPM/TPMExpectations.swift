import Foundation
import PasskeyTesting
import Testing

@testable import WebAuthn

/// Expects `TPMAttestation.verify` to reject `statement` with `code`, for a reason that mentions `fragment`.
func expectTPMRejection(
    _ statement: AttestationStatement,
    _ code: WebAuthnError.Code,
    mentioning fragment: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let error = #expect(throws: WebAuthnError.self, sourceLocation: sourceLocation) {
        try TPMAttestation.verify(statement)
    }
    guard let error else { return }
    #expect(error.code == code, "got \(error)", sourceLocation: sourceLocation)
    #expect(
        error.reason.localizedCaseInsensitiveContains(fragment),
        "'\(error.reason)' does not mention '\(fragment)'",
        sourceLocation: sourceLocation
    )
}

/// Expects `TPMAttestation.verify` to accept `statement` as AttCA with the statement's x5c as trust path
/// (cut short at an intermediate swift-certificates cannot decode, as in 073 and 074, whose intermediate has a
/// negative serial number).
func expectTPMAcceptance(_ statement: AttestationStatement, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let result = try TPMAttestation.verify(statement)
        #expect(result.type == .attCA, sourceLocation: sourceLocation)
        let x5c = statement.fields[text: "x5c"]?.arrayValue ?? []
        #expect(result.trustPath.first?.derBytes == x5c.first?.bytesValue, sourceLocation: sourceLocation)
        #expect((1...x5c.count).contains(result.trustPath.count), sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected the statement to verify: \(error)", sourceLocation: sourceLocation)
    }
}
