public import Foundation

/// A store in process memory, for tests and demos. It keeps the same guarantees as the database adapters
/// within one process (an actor serialises every operation); it is lost when the process ends.
public actor MemoryPasskeyStore: PasskeyStore {
    // Internal rather than private for the extensions (`MemoryPasskeyStore+Purge.swift`).
    var users: [String: UserRecord] = [:]
    var credentialsByID: [[UInt8]: CredentialRecordRow] = [:]
    var flows: [String: FlowRecord] = [:]
    /// In order of sequence.
    var audit: [AuditEvent] = []
    /// The last sequence number given, which purging the events does not take back.
    private var lastAuditSequence: Int64 = 0
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

    public init() {}

    public func createUserIfAbsent(_ user: UserRecord) throws(StoreError) -> UserRecord {
        if let existing = users[user.id] { return existing }
        guard !users.values.contains(where: { $0.handle == user.handle }) else {
            throw StoreError(.duplicate, "Another user has this user handle.")
        }
        guard self.user(name: user.name) == nil else { throw StoreError.userNameTaken }
        users[user.id] = user
        return user
    }

    public func user(id: String) -> UserRecord? { users[id] }
    public func user(handle: [UInt8]) -> UserRecord? { users.values.first { $0.handle == handle } }
    public func user(name: String) -> UserRecord? { users.values.first { $0.name == name } }

    public func deleteUser(id: String) -> Bool {
        guard users.removeValue(forKey: id) != nil else { return false }
        credentialsByID = credentialsByID.filter { $0.value.userID != id }
        flows = flows.filter { $0.value.userID != id }
        dropOrphanedCrossPlatformSessions()
        webSessionsByID = webSessionsByID.filter { $0.value.userID != id }
        workflowRunsByID = workflowRunsByID.filter { $0.value.userID != id }
        recoveryAttemptsByID = recoveryAttemptsByID.filter { $0.value.userID != id }
        return true
    }

    public func users(matching query: String?, after: String?, limit: Int) -> [UserSummary] {
        guard limit > 0 else { return [] }
        let needle = query.flatMap { $0.isEmpty ? nil : Self.asciiLowercased($0) }
        let page = users.values.filter { user in
            if let after, !after.utf8.lexicographicallyPrecedes(user.id.utf8) { return false }
            guard let needle else { return true }
            return [user.id, user.name, user.displayName].contains { Self.asciiLowercased($0).contains(needle) }
        }
        .sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        .prefix(limit)
        return page.map { user in
            UserSummary(
                user: user,
                activeCredentials: credentialsByID.values.count { $0.userID == user.id && $0.status == .active }
            )
        }
    }

    public func credential(id: [UInt8]) -> CredentialRecordRow? { credentialsByID[id] }

    public func credentials(userID: String) -> [CredentialRecordRow] {
        credentialsByID.values.filter { $0.userID == userID && $0.status != .revoked }.sorted(by: Self.oldestFirst)
    }

    public func renameCredential(
        id: [UInt8],
        name: String,
        nameKey: String,
        at time: Date
    ) throws(StoreError) -> CredentialRecordRow? {
        guard var credential = credentialsByID[id], credential.status != .revoked else { return nil }
        guard
            !liveCredentials(of: credential.userID, at: time).contains(where: { $0.id != id && $0.nameKey == nameKey })
        else {
            throw StoreError(.nameTaken, "Another credential of this user is named '\(name)'.")
        }
        credential.name = name
        credential.nameKey = nameKey
        credentialsByID[id] = credential
        return credential
    }

    public func recordCredentialUse(
        id: [UInt8],
        expectedSignCount: UInt32,
        signCount: UInt32,
        backupState: Bool,
        at time: Date
    ) -> CredentialRecordRow? {
        guard var credential = credentialsByID[id], credential.status == .active,
            credential.signCount == expectedSignCount
        else { return nil }
        credential.signCount = signCount
        credential.backupState = backupState
        credential.lastUsedAt = time
        credentialsByID[id] = credential
        return credential
    }

    public func revokeCredential(id: [UInt8], at time: Date) -> CredentialRecordRow? {
        guard var credential = credentialsByID[id], credential.status != .revoked else { return nil }
        credential.status = .revoked
        credential.revokedAt = time
        credentialsByID[id] = credential
        endFlowsInFlight(ofUser: credential.userID, at: time)
        return credential
    }

    public func createFlow(_ flow: FlowRecord) throws(StoreError) {
        guard flows[flow.id] == nil else { throw StoreError(.duplicate, "A flow with id \(flow.id) exists.") }
        flows[flow.id] = flow
    }

    public func flow(id: String) -> FlowRecord? { flows[id] }

    public func updateFlow(
        id: String,
        expectedStatuses: Set<FlowStatus>,
        at time: Date,
        update: FlowUpdate
    ) -> FlowRecord? {
        guard let flow = flows[id], expectedStatuses.contains(flow.status), flow.expiresAt > time else { return nil }
        let updated = update.applied(to: flow, at: time)
        flows[id] = updated
        return updated
    }

    public func consumeChallenge(flowID: String, challengeHash: [UInt8], at time: Date) -> FlowRecord? {
        guard let flow = flows[flowID], flow.challengeHash == challengeHash, let expiry = flow.challengeExpiresAt,
            expiry > time
        else {
            return nil
        }
        flows[flowID] = FlowUpdate(status: .verifying, clearChallenge: true).applied(to: flow, at: time)
        return flow
    }

    public func redeemResult(flowID: String, resultTokenHash: [UInt8], at time: Date) -> FlowRecord? {
        guard let flow = flows[flowID], flow.status == .completed, flow.resultTokenHash == resultTokenHash,
            let expiry = flow.resultExpiresAt, expiry > time
        else { return nil }
        flows[flowID] = FlowUpdate(status: .redeemed).applied(to: flow, at: time)
        return flow
    }

    public func insertCredential(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) throws(StoreError) {
        guard users[credential.userID] != nil else { throw StoreError(.notFound, "No user \(credential.userID).") }
        let live = liveCredentials(of: credential.userID, at: time)
        try CredentialInsertion.check(
            credential,
            idKept: credentialsByID[credential.id].map { CredentialInsertion.keepsID($0, at: time) } ?? false,
            live: live.count,
            liveWithNameKey: live.count { $0.nameKey == credential.nameKey },
            maximumActive: maximumActive
        )
        guard let flow = flows[flowID] else { throw StoreError(.notFound, "No flow \(flowID).") }
        guard flow.status != .aborted else { throw StoreError(.flowEnded, "The flow \(flowID) was ended.") }
        credentialsByID[credential.id] = credential
        flows[flowID] = flowUpdate.applied(to: flow, at: time)
    }

    public func insertFirstCredential(
        _ credential: CredentialRecordRow,
        displayName: String,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) throws(StoreError) {
        let onRecord = credentialsByID.values.count { $0.userID == credential.userID && $0.status != .reserved }
        guard onRecord == 0 else {
            throw StoreError(.limitReached, "The user has had a passkey: the account is not claimed again.")
        }
        try insertCredential(credential, maximumActive: 1, flowID: flowID, flowUpdate: flowUpdate, at: time)
        users[credential.userID]?.displayName = displayName
    }

    public func settleReservation(
        flowID: String,
        finalize: Bool,
        flowUpdate: FlowUpdate,
        at time: Date
    ) -> CredentialRecordRow? {
        guard var credential = credentialsByID.values.first(where: { $0.flowID == flowID && $0.status == .reserved }),
            credential.isLive(at: time), let flow = flows[flowID]
        else { return nil }
        if finalize {
            credential.status = .active
            credential.reservedUntil = nil
            credentialsByID[credential.id] = credential
        } else {
            credentialsByID[credential.id] = nil
        }
        flows[flowID] = flowUpdate.applied(to: flow, at: time)
        return credential
    }

    public func appendAuditEvent(_ event: AuditEvent) -> AuditEvent {
        var event = event
        lastAuditSequence += 1
        event.sequence = lastAuditSequence
        audit.append(event)
        return event
    }

    public func auditEvents(after: Int64, limit: Int, userID: String?) -> [AuditEvent] {
        Array(audit.lazy.filter { $0.sequence > after && (userID == nil || $0.userID == userID) }.prefix(limit))
    }

    public func auditEvents(before: Int64?, limit: Int, userID: String?) -> [AuditEvent] {
        let before = before ?? .max
        return Array(
            audit.reversed().lazy.filter { $0.sequence < before && (userID == nil || $0.userID == userID) }
                .prefix(max(0, limit))
        )
    }

    /// The text's UTF-8 bytes with ASCII capitals made small, as the SQL adapters' `lower()` does. Searching
    /// bytes rather than characters matches what the databases do, too.
    private static func asciiLowercased(_ text: String) -> [UInt8] {
        text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
    }

    /// Oldest first; credentials created at the same time in the byte order of their ids, as the SQL adapters
    /// order them.
    private static func oldestFirst(_ first: CredentialRecordRow, _ second: CredentialRecordRow) -> Bool {
        if first.createdAt != second.createdAt { return first.createdAt < second.createdAt }
        return first.id.lexicographicallyPrecedes(second.id)
    }

    private func liveCredentials(of userID: String, at time: Date) -> [CredentialRecordRow] {
        credentialsByID.values.filter { $0.userID == userID && $0.isLive(at: time) }
    }
}
