/// The attestation object (WebAuthn §6.5): `{fmt, attStmt, authData}` in CBOR.
public struct AttestationObject: Sendable, Hashable {
    public let format: AttestationFormat
    /// The format-specific statement, as a CBOR map.
    public let statement: CBORValue
    public let authenticatorData: AuthenticatorData

    /// The largest attestation object accepted (TPM and SafetyNet statements with chains fit well within it).
    public static let maximumSize = 64 * 1024

    /// Decodes the CBOR attestation object (§7.1 step 12).
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        func fail(_ reason: String) -> WebAuthnError { WebAuthnError(.malformedAttestationObject, reason) }
        guard bytes.count <= Self.maximumSize else {
            throw WebAuthnError(
                .inputTooLarge,
                "The attestation object is \(bytes.count) bytes; the limit is \(Self.maximumSize)."
            )
        }
        // The client assembles the attestation object (and, for U2F devices, the statement), and clients do not
        // all emit canonical key order; keys are still unique and everything else is strict. The authenticator
        // data inside, which the authenticator signs, is decoded with canonical order required.
        let limits = CBORLimits(
            maximumInputSize: Self.maximumSize,
            maximumDepth: 8,
            maximumItemCount: 1024,
            requireCanonicalMapOrder: false
        )
        let value = try CBORDecoder(limits: limits).decode(bytes)
        guard let entries = value.mapEntries, entries.count == 3 else {
            throw fail("The attestation object must be a CBOR map of exactly fmt, attStmt and authData.")
        }
        guard let fmt = value[text: "fmt"]?.textValue else { throw fail("The attestation object has no text 'fmt'.") }
        // attStmt is a map, except for `compound`, whose statement is an array of statements.
        guard let statement = value[text: "attStmt"],
            statement.mapEntries != nil || (fmt == AttestationFormat.compound.rawValue && statement.arrayValue != nil)
        else {
            throw fail("The attestation object has no map 'attStmt'.")
        }
        guard let authData = value[text: "authData"]?.bytesValue else {
            throw fail("The attestation object has no byte string 'authData'.")
        }
        self.format = AttestationFormat(rawValue: fmt)
        self.statement = statement
        self.authenticatorData = try AuthenticatorData(bytes: authData)
    }
}
