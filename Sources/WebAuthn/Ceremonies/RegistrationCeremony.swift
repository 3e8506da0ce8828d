import Foundation

/// What the relying party expects of a registration (the inputs of WebAuthn §7.1), and its verification.
///
/// ```swift
/// let ceremony = RegistrationCeremony(challenge: issuedChallenge, relyingPartyID: "example.com",
///                                     origins: OriginPolicy("https://example.com"))
/// let registration = try await ceremony.verify(response, at: .now)
/// ```
public struct RegistrationCeremony: Sendable {
    /// The challenge sent in the creation options.
    public var challenge: [UInt8]
    /// The RP IDs whose hash may appear in authenticator data (usually one).
    public var relyingPartyIDs: [String]
    public var origins: OriginPolicy
    /// `required` makes the UV flag mandatory.
    public var userVerification: UserVerificationRequirement
    /// User presence is required by WebAuthn; turn it off only for ceremonies that the spec allows without it.
    public var requireUserPresence: Bool
    /// The `pubKeyCredParams` offered; the credential's algorithm must be one of them (§7.1 step 18).
    public var allowedAlgorithms: [COSEAlgorithmIdentifier]
    public var attestation: AttestationPolicy
    /// Whether backup-eligible (synced) credentials are accepted.
    public var allowBackupEligible: Bool
    /// The accepted `clientData.type` values: `webauthn.create`, or another value for extensions
    /// of WebAuthn that define their own (such as Secure Payment Confirmation).
    public var acceptedClientDataTypes: [String]

    public init(
        challenge: [UInt8],
        relyingPartyID: String,
        origins: OriginPolicy,
        userVerification: UserVerificationRequirement = .preferred,
        allowedAlgorithms: [COSEAlgorithmIdentifier] = COSEAlgorithmIdentifier.recommended,
        attestation: AttestationPolicy = AttestationPolicy(),
        allowBackupEligible: Bool = true
    ) {
        self.challenge = challenge
        self.relyingPartyIDs = [relyingPartyID]
        self.origins = origins
        self.userVerification = userVerification
        self.requireUserPresence = true
        self.allowedAlgorithms = allowedAlgorithms
        self.attestation = attestation
        self.allowBackupEligible = allowBackupEligible
        self.acceptedClientDataTypes = ["webauthn.create"]
    }
}

/// A registration that passed every step of §7.1: what the relying party stores (§7.1 step 26).
public struct VerifiedRegistration: Sendable {
    public let credentialID: [UInt8]
    public let credentialPublicKey: COSEKey
    public let signCount: UInt32
    public let aaguid: AAGUID
    public let attestation: VerifiedAttestation
    public let userVerified: Bool
    public let backupEligible: Bool
    public let backupState: Bool
    public let transports: [AuthenticatorTransport]
    public let authenticatorAttachment: AuthenticatorAttachment?
    public let authenticatorData: AuthenticatorData
    public let clientData: CollectedClientData
    /// Client extension outputs, as the client reported them (unsigned: never trust them for security decisions).
    public let clientExtensionResults: [String: JSONValue]
}
