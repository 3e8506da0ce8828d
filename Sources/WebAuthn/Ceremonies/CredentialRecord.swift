/// What the relying party stored for a credential at registration (WebAuthn §7.1 step 26), as needed
/// to verify an assertion with it.
public struct CredentialRecord: Sendable, Hashable {
    public var id: [UInt8]
    public var publicKey: COSEKey
    /// The last signature counter value seen.
    public var signCount: UInt32
    /// The user handle of the account the credential belongs to, when the relying party knows it.
    public var userHandle: [UInt8]?
    /// The BE flag at registration, when the relying party recorded it; BE must not change (§7.2 step 18).
    public var backupEligible: Bool?

    public init(
        id: [UInt8],
        publicKey: COSEKey,
        signCount: UInt32,
        userHandle: [UInt8]? = nil,
        backupEligible: Bool? = nil
    ) {
        self.id = id
        self.publicKey = publicKey
        self.signCount = signCount
        self.userHandle = userHandle
        self.backupEligible = backupEligible
    }
}

/// How the user was identified for an authentication (§7.2 step 6).
public enum UserIdentification: Sendable, Hashable {
    /// The user was identified before the ceremony (a username): the credential must be theirs,
    /// and a returned `userHandle` must be theirs too.
    case identified(userHandle: [UInt8])
    /// Usernameless: the response's `userHandle` identifies the user; it must be present and be the
    /// credential record's user handle.
    case discoverable
    /// Only the credential is checked (developer tools that hold a credential record without a user).
    case credentialOnly
}

/// What to do when the signature counter does not increase (§7.2 step 22).
public enum SignCountPolicy: Sendable, Hashable {
    /// Fail with `SIGN_COUNT_REGRESSION` (the default): the authenticator may have been cloned.
    case rejectRegression
    /// Accept, and report it in ``VerifiedAuthentication/signCountRegressed`` for the relying party's risk logic.
    case reportRegression
}
