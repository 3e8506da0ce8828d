public import Foundation
public import WebAuthn

/// A recovery on this (new) device, which the app's backend started (`POST /v1/recoveries`) and whose token reached
/// the person out of band.
public struct RecoveryInput: Sendable, Hashable {
    public var recoveryAttemptId: String
    /// Single-use: it authorizes the identity verification and is exchanged once for the registration data.
    public var recoveryToken: String
    /// The replacement passkey's name on the server; by default it is named after its authenticator.
    public var credentialName: String?
    /// When the recovery attempt expires (`attemptExpiresAt` of `POST /v1/recoveries`, delivered with the token).
    /// ``PasskeyClient/recover(_:registrationProvider:)`` checks it first: an attempt past it fails at once with
    /// `RECOVERY_ATTEMPT_EXPIRED`, before the person is asked for anything and before any request.
    public var attemptExpiresAt: Date?

    public init(
        recoveryAttemptId: String,
        recoveryToken: String,
        credentialName: String? = nil,
        attemptExpiresAt: Date? = nil
    ) {
        self.recoveryAttemptId = recoveryAttemptId
        self.recoveryToken = recoveryToken
        self.credentialName = credentialName
        self.attemptExpiresAt = attemptExpiresAt
    }
}

/// Fetches the replacement registration data once the person's identity is verified: from the app's own backend,
/// or from the passkey server (``ServerRecoveryRegistrationProvider``). Throw `RECOVERY_IDV_NOT_COMPLETED` while
/// the verification's decision has not arrived: ``PasskeyClient/recover(_:registrationProvider:)`` asks again.
public protocol RecoveryRegistrationProvider: Sendable {
    func registrationData(for input: RecoveryInput) async throws(PasskeyError) -> RecoveryRegistrationData
}

/// What the new device needs to create the replacement passkey.
public struct RecoveryRegistrationData: Sendable, Hashable, Codable {
    /// Base64url, 16 to 1024 bytes.
    public var challenge: String
    /// The user's WebAuthn user handle, base64url, not empty.
    public var userHandle: String
    public var rpId: String
    /// The integrator's user id; when absent, the passkey is filed under the user handle.
    public var userId: String?
    /// The passkey must be created before this time.
    public var registrationExpiresAt: Date
    public var attemptExpiresAt: Date
    /// From the passkey server: completing at its `…/complete` needs it. Without it, the app completes the
    /// recovery with its own backend, with the ``RecoveredCredentialOutput``.
    public var continuationToken: String?
    /// The server's creation options, when it sent them (they must agree with the fields above).
    public var publicKey: PublicKeyCredentialCreationOptionsJSON?

    public init(
        challenge: String,
        userHandle: String,
        rpId: String,
        userId: String? = nil,
        registrationExpiresAt: Date,
        attemptExpiresAt: Date,
        continuationToken: String? = nil,
        publicKey: PublicKeyCredentialCreationOptionsJSON? = nil
    ) {
        self.challenge = challenge
        self.userHandle = userHandle
        self.rpId = rpId
        self.userId = userId
        self.registrationExpiresAt = registrationExpiresAt
        self.attemptExpiresAt = attemptExpiresAt
        self.continuationToken = continuationToken
        self.publicKey = publicKey
    }
}

/// The replacement passkey, as the WebAuthn registration response carries it (base64url).
public struct RecoveredCredentialOutput: Sendable, Hashable {
    public var credentialId: String
    public var attestationObject: String
    public var clientDataJson: String
    /// The user id the passkey is filed under on this device.
    public var userId: String
    /// The server's record of the passkey (reserved until the backend finalizes the recovery), when the
    /// registration data came from the passkey server and the SDK completed it there.
    public var registered: RegisteredCredential?

    public init(
        credentialId: String,
        attestationObject: String,
        clientDataJson: String,
        userId: String,
        registered: RegisteredCredential? = nil
    ) {
        self.credentialId = credentialId
        self.attestationObject = attestationObject
        self.clientDataJson = clientDataJson
        self.userId = userId
        self.registered = registered
    }
}

extension IdentityVerificationRequest.Purpose {
    /// Before a recovery's replacement passkey: the vendor also matches the face against the enrolled identity.
    public static let recovery = Self(rawValue: "recovery")
}
