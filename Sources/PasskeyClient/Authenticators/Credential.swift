public import Foundation

/// A passkey held on this device, as the SDK lists it (never its private key).
public struct Credential: Sendable, Hashable, Codable, Identifiable {
    /// The credential id, unpadded base64url (as the server and WebAuthn's JSON write it).
    public var credentialId: String
    /// The RP ID the passkey belongs to.
    public var rpDomain: String
    /// The integrator's user id, when the passkey was enrolled through ``PasskeyClient/enroll(_:)`` (or given to
    /// the raw `create`).
    public var userId: String?
    /// `user.name` of the creation options.
    public var userName: String
    /// The WebAuthn user handle, unpadded base64url.
    public var userHandle: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// Whether it can be used without a user name (a discoverable credential, "resident key").
    public var isDiscoverable: Bool

    public var id: String { credentialId }

    public init(
        credentialId: String,
        rpDomain: String,
        userId: String?,
        userName: String,
        userHandle: String,
        createdAt: Date,
        lastUsedAt: Date?,
        isDiscoverable: Bool
    ) {
        self.credentialId = credentialId
        self.rpDomain = rpDomain
        self.userId = userId
        self.userName = userName
        self.userHandle = userHandle
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.isDiscoverable = isDiscoverable
    }
}
