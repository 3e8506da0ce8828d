public import Foundation

/// One ceremony in progress — a registration attempt, an authentication session, and (later) a cross-device
/// handoff or a recovery attempt. The columns every flow needs are typed; the rest is the flow's own
/// JSON `payload`, so new flows need no new tables.
public struct FlowRecord: Sendable, Hashable {
    public var id: String
    public var kind: FlowKind
    public var status: FlowStatus
    public var userID: String?
    /// SHA-256 of the client token that may drive the flow's client API.
    public var clientTokenHash: [UInt8]
    /// SHA-256 of the pending challenge, if options were issued and not yet used.
    public var challengeHash: [UInt8]?
    public var challengeExpiresAt: Date?
    /// SHA-256 of the result token, once the ceremony completed.
    public var resultTokenHash: [UInt8]?
    public var resultExpiresAt: Date?
    public var expiresAt: Date
    public var createdAt: Date
    public var updatedAt: Date
    /// The flow's own state, JSON-encoded by its owner.
    public var payload: [UInt8]

    public init(
        id: String,
        kind: FlowKind,
        status: FlowStatus,
        userID: String?,
        clientTokenHash: [UInt8],
        challengeHash: [UInt8]? = nil,
        challengeExpiresAt: Date? = nil,
        resultTokenHash: [UInt8]? = nil,
        resultExpiresAt: Date? = nil,
        expiresAt: Date,
        createdAt: Date,
        updatedAt: Date,
        payload: [UInt8]
    ) {
        self.id = id
        self.kind = kind
        self.status = status
        self.userID = userID
        self.clientTokenHash = clientTokenHash
        self.challengeHash = challengeHash
        self.challengeExpiresAt = challengeExpiresAt
        self.resultTokenHash = resultTokenHash
        self.resultExpiresAt = resultExpiresAt
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.payload = payload
    }
}

/// What kind of flow a record is.
public struct FlowKind: RawRepresentable, Sendable, Hashable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let registration = Self(rawValue: "registration")
    public static let authentication = Self(rawValue: "authentication")
}

/// Where a flow stands. Flows define their own statuses on top of these shared ones.
public struct FlowStatus: RawRepresentable, Sendable, Hashable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Created by the backend; no options issued yet.
    public static let created = Self(rawValue: "created")
    /// An authentication session handed over to a phone (a cross-platform session); no options issued yet.
    public static let handedOff = Self(rawValue: "handed_off")
    /// Options (and a challenge) were issued to the client.
    public static let optionsIssued = Self(rawValue: "options_issued")
    /// The challenge was consumed and the response is being verified.
    public static let verifying = Self(rawValue: "verifying")
    /// The ceremony succeeded; a result may await redemption or finalization.
    public static let completed = Self(rawValue: "completed")
    /// The result token was redeemed (authentication) or the reservation finalized (registration).
    public static let redeemed = Self(rawValue: "redeemed")
    public static let finalized = Self(rawValue: "finalized")
    public static let aborted = Self(rawValue: "aborted")
    /// Cancelled by the backend before it completed (a registration's `…/cancel`): unlike `.aborted` (ended by a reset
    /// of its user, or by the backend after it completed), nothing was ever stored for it.
    public static let cancelled = Self(rawValue: "cancelled")
    /// The response did not verify; a new challenge may be issued.
    public static let failed = Self(rawValue: "failed")
}

/// A change to a flow, applied atomically by ``FlowStore/updateFlow(id:expectedStatuses:at:update:)``.
/// Unset members are left as they are; the `clear…` switches set the column to null.
public struct FlowUpdate: Sendable, Hashable {
    public var status: FlowStatus?
    public var challengeHash: [UInt8]?
    public var challengeExpiresAt: Date?
    public var clearChallenge: Bool
    public var resultTokenHash: [UInt8]?
    public var resultExpiresAt: Date?
    public var payload: [UInt8]?

    public init(
        status: FlowStatus? = nil,
        challengeHash: [UInt8]? = nil,
        challengeExpiresAt: Date? = nil,
        clearChallenge: Bool = false,
        resultTokenHash: [UInt8]? = nil,
        resultExpiresAt: Date? = nil,
        payload: [UInt8]? = nil
    ) {
        self.status = status
        self.challengeHash = challengeHash
        self.challengeExpiresAt = challengeExpiresAt
        self.clearChallenge = clearChallenge
        self.resultTokenHash = resultTokenHash
        self.resultExpiresAt = resultExpiresAt
        self.payload = payload
    }

    /// The record with this update applied.
    public func applied(to flow: FlowRecord, at time: Date) -> FlowRecord {
        var flow = flow
        if let status { flow.status = status }
        if clearChallenge {
            flow.challengeHash = nil
            flow.challengeExpiresAt = nil
        }
        if let challengeHash { flow.challengeHash = challengeHash }
        if let challengeExpiresAt { flow.challengeExpiresAt = challengeExpiresAt }
        if let resultTokenHash { flow.resultTokenHash = resultTokenHash }
        if let resultExpiresAt { flow.resultExpiresAt = resultExpiresAt }
        if let payload { flow.payload = payload }
        flow.updatedAt = time
        return flow
    }
}
