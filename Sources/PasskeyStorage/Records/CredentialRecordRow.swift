public import Foundation

/// A stored passkey: what registration verified, plus its name, status and use.
public struct CredentialRecordRow: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        case active
        /// Registered under explicit finalize and awaiting it until ``CredentialRecordRow/reservedUntil``.
        case reserved
        case revoked
    }

    public var id: [UInt8]
    public var userID: String
    /// The COSE_Key bytes.
    public var publicKey: [UInt8]
    public var algorithm: Int
    public var signCount: UInt32
    public var aaguid: String
    public var attestationFormat: String
    public var attestationType: String
    public var attestationTrusted: Bool
    public var transports: [String]
    public var backupEligible: Bool
    public var backupState: Bool
    public var userVerified: Bool
    public var name: String
    /// The name as compared for uniqueness: NFC, trimmed, lower-cased.
    public var nameKey: String
    public var status: Status
    public var reservedUntil: Date?
    /// The flow that registered it.
    public var flowID: String?
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revokedAt: Date?
    /// The identity-verification run (``WorkflowRunRecord``) the credential was created after, when there was one.
    public var workflowRunID: String?
    /// Whether it opens the operator console for its user: set only when an operator already in the console (or a
    /// break-glass session) enrolled it there, never by the demo or the API.
    public var consoleEnrolled: Bool

    public init(
        id: [UInt8],
        userID: String,
        publicKey: [UInt8],
        algorithm: Int,
        signCount: UInt32,
        aaguid: String,
        attestationFormat: String,
        attestationType: String,
        attestationTrusted: Bool,
        transports: [String],
        backupEligible: Bool,
        backupState: Bool,
        userVerified: Bool,
        name: String,
        nameKey: String,
        status: Status,
        reservedUntil: Date? = nil,
        flowID: String? = nil,
        createdAt: Date,
        lastUsedAt: Date? = nil,
        revokedAt: Date? = nil,
        workflowRunID: String? = nil,
        consoleEnrolled: Bool = false
    ) {
        self.id = id
        self.userID = userID
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.aaguid = aaguid
        self.attestationFormat = attestationFormat
        self.attestationType = attestationType
        self.attestationTrusted = attestationTrusted
        self.transports = transports
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.userVerified = userVerified
        self.name = name
        self.nameKey = nameKey
        self.status = status
        self.reservedUntil = reservedUntil
        self.flowID = flowID
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
        self.workflowRunID = workflowRunID
        self.consoleEnrolled = consoleEnrolled
    }

    /// Whether it counts toward the user's limit and name uniqueness at `time`.
    public func isLive(at time: Date) -> Bool {
        switch status {
        case .active: true
        case .reserved: (reservedUntil ?? .distantPast) > time
        case .revoked: false
        }
    }
}
