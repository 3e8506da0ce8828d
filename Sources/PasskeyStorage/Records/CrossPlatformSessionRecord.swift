public import Foundation

/// A handoff of an authentication session from the device that started it (a desktop browser) to a phone that holds
/// the passkey (DESIGN §3 flow 4). Its tokens reach the store only as SHA-256 hashes.
public struct CrossPlatformSessionRecord: Sendable, Hashable {
    /// Where the handoff stands. Approval is not a status of its own: a session is approved when its
    /// authentication flow completed.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Created; no phone has claimed the handoff token yet.
        case pending
        /// A phone claimed the handoff token and holds the client token.
        case claimed
        /// The person confirmed the verification code shown on the first device.
        case confirmed
        /// The person said "not me", or typed a wrong code too often.
        case rejected
        /// The first device called the handoff off.
        case cancelled
    }

    /// Public id, `xps_…`.
    public var id: String
    /// The authentication flow handed over; one handoff per flow.
    public var flowID: String
    public var handoffTokenHash: [UInt8]
    /// Of the token the first device follows the status with.
    public var pollTokenHash: [UInt8]
    /// Of the client token the claiming phone was given; nil until claimed.
    public var clientTokenHash: [UInt8]?
    /// The two digits the first device shows and the person confirms on the phone.
    public var verificationCode: String
    public var status: Status
    /// Wrong verification codes sent so far.
    public var codeFailures: Int
    public var createdAt: Date
    public var updatedAt: Date
    /// Until when the handoff token may be claimed.
    public var handoffExpiresAt: Date
    /// Until when the session may be confirmed, rejected or approved: its flow's expiry.
    public var expiresAt: Date

    public init(
        id: String,
        flowID: String,
        handoffTokenHash: [UInt8],
        pollTokenHash: [UInt8],
        clientTokenHash: [UInt8]? = nil,
        verificationCode: String,
        status: Status = .pending,
        codeFailures: Int = 0,
        createdAt: Date,
        updatedAt: Date,
        handoffExpiresAt: Date,
        expiresAt: Date
    ) {
        self.id = id
        self.flowID = flowID
        self.handoffTokenHash = handoffTokenHash
        self.pollTokenHash = pollTokenHash
        self.clientTokenHash = clientTokenHash
        self.verificationCode = verificationCode
        self.status = status
        self.codeFailures = codeFailures
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.handoffExpiresAt = handoffExpiresAt
        self.expiresAt = expiresAt
    }
}
