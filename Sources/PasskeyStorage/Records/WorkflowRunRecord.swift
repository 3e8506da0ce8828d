public import Foundation

/// One identity-verification run of a user (DESIGN §5): created for exactly one flow, decided by the
/// identity-verification provider.
public struct WorkflowRunRecord: Sendable, Hashable {
    /// What the run verifies the user for.
    public enum Purpose: String, Sendable, Hashable, CaseIterable {
        case enrollment
        case stepUp
        case crossPlatform
        case recovery
    }

    /// Where the run stands: `pending` until the provider decides it.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case pending
        case approved
        case declined
        case review
    }

    /// The outcome of the provider's comparison of the user's face with their document.
    public enum FaceMatch: String, Sendable, Hashable, CaseIterable {
        case pass
        case fail
    }

    /// Public id, `idv_…`.
    public var id: String
    public var purpose: Purpose
    public var userID: String
    /// The flow (registration attempt, authentication session, recovery attempt) the run belongs to; one run per flow.
    public var flowID: String
    public var status: Status
    public var faceMatch: FaceMatch?
    /// The vendor's own reference for the run, when a vendor gave one.
    public var vendorReference: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var expiresAt: Date

    public init(
        id: String,
        purpose: Purpose,
        userID: String,
        flowID: String,
        status: Status,
        faceMatch: FaceMatch? = nil,
        vendorReference: String? = nil,
        createdAt: Date,
        updatedAt: Date,
        expiresAt: Date
    ) {
        self.id = id
        self.purpose = purpose
        self.userID = userID
        self.flowID = flowID
        self.status = status
        self.faceMatch = faceMatch
        self.vendorReference = vendorReference
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.expiresAt = expiresAt
    }

    /// Whether a decision may still be recorded at `time`: until the run expires, and not from then on.
    public func isLive(at time: Date) -> Bool { expiresAt > time }
}
