public import Foundation

/// One state change, for the audit log: who did what to which subject, when. Never holds a secret.
public struct AuditEvent: Sendable, Hashable, Codable {
    /// Assigned by the store, increasing.
    public var sequence: Int64
    public var time: Date
    /// `api-key:<name>`, `client`, `operator:<name>` or `system`.
    public var actor: String
    /// Such as `registration.completed`, `credential.revoked`.
    public var action: String
    public var userID: String?
    /// The credential id (base64url) or flow id concerned.
    public var subject: String?
    public var requestID: String?
    /// Extra facts (names, AAGUIDs, error codes) — never tokens, challenges, keys or attestation data.
    public var details: [String: String]
    /// The hash of the event before it in the chain (``AuditChain/genesis`` for the first), set by the store when it
    /// appends the event; nil for events written before the chain existed.
    public var previousHash: [UInt8]?
    /// SHA-256 of this event's canonical encoding and ``previousHash`` (``AuditChain``), set by the store when it
    /// appends the event; nil for events written before the chain existed.
    public var hash: [UInt8]?

    public init(
        sequence: Int64 = 0,
        time: Date,
        actor: String,
        action: String,
        userID: String? = nil,
        subject: String? = nil,
        requestID: String? = nil,
        details: [String: String] = [:],
        previousHash: [UInt8]? = nil,
        hash: [UInt8]? = nil
    ) {
        self.sequence = sequence
        self.time = time
        self.actor = actor
        self.action = action
        self.userID = userID
        self.subject = subject
        self.requestID = requestID
        self.details = details
        self.previousHash = previousHash
        self.hash = hash
    }
}
