import Foundation

/// A store in process memory, for tests and demos. It keeps the same guarantees as the database adapters
/// within one process (an actor serialises every operation); it is lost when the process ends.
public actor MemoryPasskeyStore: PasskeyStore {
    // Internal rather than private for the extensions: a role each (`MemoryPasskeyStore+Credentials.swift` is the
    // `CredentialStore`), and `MemoryPasskeyStore+Purge.swift` across them.
    var users: [String: UserRecord] = [:]
    var credentialsByID: [[UInt8]: CredentialRecordRow] = [:]
    var flows: [String: FlowRecord] = [:]
    /// In order of sequence, chained (see `MemoryPasskeyStore+Audit.swift`).
    var audit: [AuditEvent] = []
    /// The audit log's signed checkpoints, in order of sequence.
    var auditCheckpoints: [AuditCheckpoint] = []
    /// By key hash (see `MemoryPasskeyStore+Limits.swift`).
    var limitWindowsByKey: [[UInt8]: LimitWindow] = [:]
    /// By id (see `MemoryPasskeyStore+WebSessions.swift`).
    var webSessionsByID: [String: WebSessionRecord] = [:]
    /// By id (see `MemoryPasskeyStore+WorkflowRuns.swift`).
    var workflowRunsByID: [String: WorkflowRunRecord] = [:]
    /// By id (see `MemoryPasskeyStore+CrossPlatformSessions.swift`).
    var crossPlatformSessionsByID: [String: CrossPlatformSessionRecord] = [:]
    /// By id (see `MemoryPasskeyStore+Recovery.swift`).
    var recoveryAttemptsByID: [String: RecoveryAttemptRecord] = [:]
    /// Ids of purged registration flows: when they were purged, and when they are forgotten.
    var purgedRegistrations: [String: (purgedAt: Date, forgetAt: Date)] = [:]
    /// By key hash (see `MemoryPasskeyStore+Idempotency.swift`).
    var idempotencyKeys: [[UInt8]: StoredIdempotencyKey] = [:]
    /// The webhook outbox, in order of id (see `MemoryPasskeyStore+WebhookOutbox.swift`).
    var webhookDeliveries: [WebhookDelivery] = []
    /// Token sessions' signing keys, in order of creation (see `MemoryPasskeyStore+SessionTokens.swift`).
    var sessionSigningKeys: [SessionSigningKey] = []
    /// Refresh-token families by id, and their tokens by hash.
    var refreshTokenFamiliesByID: [String: RefreshTokenFamily] = [:]
    var refreshTokensByHash: [[UInt8]: RefreshToken] = [:]

    public init() {}
}
