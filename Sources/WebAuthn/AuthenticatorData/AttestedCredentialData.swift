/// Attested credential data (WebAuthn §6.5.1): AAGUID, credential id and credential public key.
public struct AttestedCredentialData: Sendable, Hashable {
    public let aaguid: AAGUID
    public let credentialID: [UInt8]
    public let credentialPublicKey: COSEKey

    /// §5.1: credential ids longer than this are rejected.
    public static let maximumCredentialIDLength = 1023

    static func decode(_ bytes: ArraySlice<UInt8>) throws(WebAuthnError) -> (AttestedCredentialData, Int) {
        func fail(_ reason: String) -> WebAuthnError { WebAuthnError(.malformedAuthenticatorData, reason) }
        let start = bytes.startIndex
        guard bytes.count >= 18 else {
            throw fail("Attested credential data is truncated before the credential id length.")
        }
        let aaguid = AAGUID(unchecked: Array(bytes[start..<start + 16]))
        let idLength = Int(bytes[start + 16]) << 8 | Int(bytes[start + 17])
        guard idLength <= maximumCredentialIDLength else {
            throw WebAuthnError(
                .credentialIDTooLong,
                "The credential id is \(idLength) bytes; WebAuthn allows at most \(maximumCredentialIDLength)."
            )
        }
        guard idLength > 0 else { throw fail("The credential id is empty.") }
        guard bytes.count >= 18 + idLength + 1 else {
            throw fail("Attested credential data is truncated inside the credential id or key.")
        }
        let credentialID = Array(bytes[start + 18..<start + 18 + idLength])
        let keyStart = start + 18 + idLength
        let (keyValue, keyLength) = try CBORDecoder(
            limits: CBORLimits(maximumInputSize: AuthenticatorData.maximumSize, maximumDepth: 2, maximumItemCount: 32)
        )
        .decodePrefix(bytes[keyStart...])
        let key = try COSEKey(keyValue, cborRepresentation: Array(bytes[keyStart..<keyStart + keyLength]))
        return (
            AttestedCredentialData(aaguid: aaguid, credentialID: credentialID, credentialPublicKey: key),
            18 + idLength + keyLength
        )
    }
}
