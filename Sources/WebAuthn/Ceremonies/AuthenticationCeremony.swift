/// What the relying party expects of an authentication (the inputs of WebAuthn §7.2), and its verification.
///
/// ```swift
/// let ceremony = AuthenticationCeremony(challenge: issuedChallenge, relyingPartyID: "example.com",
///                                       origins: OriginPolicy("https://example.com"), user: .discoverable)
/// let result = try ceremony.verify(response, credential: storedRecord)
/// ```
public struct AuthenticationCeremony: Sendable {
    public var challenge: [UInt8]
    public var relyingPartyIDs: [String]
    public var origins: OriginPolicy
    public var userVerification: UserVerificationRequirement
    public var requireUserPresence: Bool
    /// The `allowCredentials` ids sent in the request options; empty for discoverable credentials (§7.2 step 5).
    public var allowCredentials: [[UInt8]]
    public var user: UserIdentification
    public var signCountPolicy: SignCountPolicy
    public var allowBackupEligible: Bool
    /// The accepted `clientData.type` values (`webauthn.get`).
    public var acceptedClientDataTypes: [String]

    public init(
        challenge: [UInt8],
        relyingPartyID: String,
        origins: OriginPolicy,
        user: UserIdentification,
        userVerification: UserVerificationRequirement = .preferred,
        allowCredentials: [[UInt8]] = [],
        signCountPolicy: SignCountPolicy = .rejectRegression,
        allowBackupEligible: Bool = true
    ) {
        self.challenge = challenge
        self.relyingPartyIDs = [relyingPartyID]
        self.origins = origins
        self.user = user
        self.userVerification = userVerification
        self.requireUserPresence = true
        self.allowCredentials = allowCredentials
        self.signCountPolicy = signCountPolicy
        self.allowBackupEligible = allowBackupEligible
        self.acceptedClientDataTypes = ["webauthn.get"]
    }
}

/// An authentication that passed every step of §7.2.
public struct VerifiedAuthentication: Sendable {
    public let credentialID: [UInt8]
    /// The new counter value to store (§7.2 step 22).
    public let signCount: UInt32
    /// True when the counter did not increase and policy is ``SignCountPolicy/reportRegression``.
    public let signCountRegressed: Bool
    public let userVerified: Bool
    public let backupEligible: Bool
    public let backupState: Bool
    public let userHandle: [UInt8]?
    public let authenticatorAttachment: AuthenticatorAttachment?
    public let authenticatorData: AuthenticatorData
    public let clientData: CollectedClientData
    /// Client extension outputs as reported (unsigned: never trust them for security decisions).
    public let clientExtensionResults: [String: JSONValue]
}
