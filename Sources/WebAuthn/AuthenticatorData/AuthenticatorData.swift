/// Authenticator data (WebAuthn §6.1): the RP ID hash, flags, signature counter, and optionally
/// attested credential data and extension outputs. Decoding is strict: every byte must be accounted for.
public struct AuthenticatorData: Sendable, Hashable {
    public let rpIDHash: [UInt8]
    public let flags: AuthenticatorDataFlags
    public let signCount: UInt32
    public let attestedCredentialData: AttestedCredentialData?
    /// The authenticator extension outputs, decoded but never trusted.
    public let extensions: CBORValue?
    /// The exact bytes this value was decoded from (the data that signatures cover).
    public let rawRepresentation: [UInt8]

    public var userPresent: Bool { flags.contains(.userPresent) }
    public var userVerified: Bool { flags.contains(.userVerified) }
    public var backupEligible: Bool { flags.contains(.backupEligible) }
    public var backupState: Bool { flags.contains(.backupState) }

    /// The largest authenticator data accepted (an RSA-4096 key with extensions fits well within it).
    public static let maximumSize = 16 * 1024

    public init(bytes: [UInt8]) throws(WebAuthnError) {
        func fail(_ reason: String) -> WebAuthnError { WebAuthnError(.malformedAuthenticatorData, reason) }
        guard bytes.count <= Self.maximumSize else {
            throw WebAuthnError(
                .inputTooLarge,
                "Authenticator data of \(bytes.count) bytes exceeds the limit of \(Self.maximumSize)."
            )
        }
        guard bytes.count >= 37 else {
            throw fail(
                "Authenticator data must be at least 37 bytes (rpIdHash, flags, signCount); it has \(bytes.count)."
            )
        }
        rawRepresentation = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = AuthenticatorDataFlags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37

        if flags.contains(.attestedCredentialData) {
            let (data, length) = try AttestedCredentialData.decode(bytes[offset...])
            attestedCredentialData = data
            offset += length
        } else {
            attestedCredentialData = nil
        }

        if flags.contains(.extensionData) {
            guard offset < bytes.count else { throw fail("The ED flag is set but there is no extension data.") }
            let (value, length) = try CBORDecoder(
                limits: CBORLimits(maximumInputSize: Self.maximumSize, maximumDepth: 8, maximumItemCount: 512)
            )
            .decodePrefix(bytes[offset...])
            guard value.mapEntries != nil else { throw fail("Authenticator extension data must be a CBOR map.") }
            extensions = value
            offset += length
        } else {
            extensions = nil
        }

        guard offset == bytes.count else {
            throw fail(
                "\(bytes.count - offset) unexpected bytes follow the authenticator data (check the AT and ED flags)."
            )
        }
        // §6.1: BS may be set only when BE is set.
        guard !flags.contains(.backupState) || flags.contains(.backupEligible) else {
            throw WebAuthnError(
                .backupFlagsInvalid,
                "The backup state (BS) flag is set but backup eligibility (BE) is not; authenticators must not do this."
            )
        }
    }
}
