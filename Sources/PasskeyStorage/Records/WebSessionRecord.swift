public import Foundation

/// A signed-in browser session of the web pages (the demo's account pages or the operator console). The cookie
/// holds a random secret; the store keeps only its SHA-256 (`secretHash`).
public struct WebSessionRecord: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case demo
        case console
    }

    /// Public handle (e.g. `ws_…`), shown to operators and used to end one session; not the secret.
    public var id: String
    public var secretHash: [UInt8]
    public var kind: Kind
    /// The signed-in user (for the console: the operator's own user when they signed in with a passkey).
    public var userID: String?
    /// The console operator's name (the API key's name, or `user:<id>`); nil for demo sessions.
    public var operatorName: String?
    /// The passkey the session was signed in with, when it was.
    public var credentialID: [UInt8]?
    /// The client address at sign-in, for the console's list.
    public var clientIP: String?
    public var createdAt: Date
    public var expiresAt: Date

    /// How many expired sessions one call of ``WebSessionStore/createWebSession(_:)`` deletes at most.
    public static let removedPerCall = 10

    public init(
        id: String,
        secretHash: [UInt8],
        kind: Kind,
        userID: String?,
        operatorName: String?,
        credentialID: [UInt8]?,
        clientIP: String?,
        createdAt: Date,
        expiresAt: Date
    ) {
        self.id = id
        self.secretHash = secretHash
        self.kind = kind
        self.userID = userID
        self.operatorName = operatorName
        self.credentialID = credentialID
        self.clientIP = clientIP
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Whether the session may still be used at `time`: until it expires, and not from then on.
    public func isLive(at time: Date) -> Bool { expiresAt > time }
}
