public import WebAuthn

/// Encodes authenticator data (WebAuthn §6.1): what an authenticator signs. Shared by the authenticators of this
/// module and the fixture builders of `PasskeyTesting`, so both produce the same bytes.
public enum AuthenticatorDataEncoding {
    /// `rpIdHash ‖ flags ‖ signCount ‖ attestedCredentialData? ‖ extensions?`. `flags` is written as given: the
    /// caller sets AT and ED to match what follows (or, in a test, deliberately not).
    public static func encode(
        rpIDHash: [UInt8],
        flags: AuthenticatorDataFlags,
        signCount: UInt32,
        attestedCredentialData: [UInt8]? = nil,
        extensions: [UInt8]? = nil
    ) -> [UInt8] {
        var bytes = rpIDHash
        bytes.append(flags.rawValue)
        bytes += bigEndian(signCount)
        if let attestedCredentialData { bytes += attestedCredentialData }
        if let extensions { bytes += extensions }
        return bytes
    }

    /// Attested credential data (§6.5.1): `aaguid ‖ credentialIdLength (2 bytes) ‖ credentialId ‖ credentialPublicKey`.
    public static func attestedCredentialData(
        aaguid: [UInt8],
        credentialID: [UInt8],
        credentialPublicKey: [UInt8]
    ) -> [UInt8] {
        aaguid + [UInt8(truncatingIfNeeded: credentialID.count >> 8), UInt8(truncatingIfNeeded: credentialID.count)]
            + credentialID + credentialPublicKey
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }
}
