import WebAuthn

/// A passkey as the system's AutoFill lists it (`ASPasskeyCredentialIdentity` on Apple platforms): enough to show
/// the account and to name the credential back in a request; never the key.
public struct PasskeyCredentialIdentity: Sendable, Hashable {
    public var rpID: String
    public var userName: String
    public var credentialID: [UInt8]
    public var userHandle: [UInt8]
    /// The key store entry's id (the credential id in base64url), so that a request maps back to one entry.
    public var recordIdentifier: String

    public init(rpID: String, userName: String, credentialID: [UInt8], userHandle: [UInt8], recordIdentifier: String) {
        self.rpID = rpID
        self.userName = userName
        self.credentialID = credentialID
        self.userHandle = userHandle
        self.recordIdentifier = recordIdentifier
    }

    /// The identity of a key store entry.
    public init(_ entry: KeyStoreEntry) {
        self.init(
            rpID: entry.rpId,
            userName: entry.userName,
            credentialID: entry.credentialId.bytes,
            userHandle: entry.userHandle.bytes,
            recordIdentifier: entry.credentialId.base64URL
        )
    }
}
