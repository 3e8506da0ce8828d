import Foundation
import PasskeyServer
import PasskeyStorage
import Synchronization

/// A ``MemoryPasskeyStore`` that fails on demand, as a database that goes away or holds damaged rows would.
final class FailingStore: PasskeyStore {
    let base = MemoryPasskeyStore()
    private let failure = Mutex<StoreError?>(nil)
    private let countFailure = Mutex<(error: StoreError?, successes: Int)>((nil, 0))
    private let releaseFailure = Mutex<StoreError?>(nil)
    private let workflowRunFailure = Mutex<StoreError?>(nil)
    /// The ids of each ``crossPlatformSessions(ids:)`` call, in order: how a test sees the handoff status streams'
    /// store reads.
    let handoffReads = Mutex<[[String]]>([])

    /// From now on every operation throws `error` (nil: work again).
    func fail(with error: StoreError?) {
        failure.withLock { $0 = error }
    }

    /// From now on counting in limit windows (after `successes` more counts that work) and giving counts back throw
    /// these errors (nil: work again); the other operations work.
    func failLimits(counting: StoreError?, after successes: Int = 0, releasing: StoreError? = nil) {
        countFailure.withLock { $0 = (counting, successes) }
        releaseFailure.withLock { $0 = releasing }
    }

    /// From now on reading and deciding identity-verification runs throws `error` (nil: work again); the other
    /// operations work.
    func failWorkflowRuns(with error: StoreError?) {
        workflowRunFailure.withLock { $0 = error }
    }

    func checkWorkflowRuns() throws(StoreError) {
        try check()
        if let error = workflowRunFailure.withLock({ $0 }) { throw error }
    }

    func check() throws(StoreError) {
        if let error = failure.withLock({ $0 }) { throw error }
    }

    func createUserIfAbsent(_ user: UserRecord) async throws(StoreError) -> UserRecord {
        try check()
        return try await base.createUserIfAbsent(user)
    }

    func user(id: String) async throws(StoreError) -> UserRecord? {
        try check()
        return await base.user(id: id)
    }

    func deleteUser(id: String) async throws(StoreError) -> Bool {
        try check()
        return await base.deleteUser(id: id)
    }

    func users(
        matching query: String?,
        after: String?,
        limit: Int,
        order: UserOrder
    ) async throws(StoreError) -> [UserSummary] {
        try check()
        return await base.users(matching: query, after: after, limit: limit, order: order)
    }

    func credential(id: [UInt8]) async throws(StoreError) -> CredentialRecordRow? {
        try check()
        return await base.credential(id: id)
    }

    func credentials(userID: String) async throws(StoreError) -> [CredentialRecordRow] {
        try check()
        return await base.credentials(userID: userID)
    }

    func renameCredential(
        id: [UInt8],
        name: String,
        nameKey: String,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow? {
        try check()
        return try await base.renameCredential(id: id, name: name, nameKey: nameKey, at: time)
    }

    func revokeCredential(id: [UInt8], at time: Date) async throws(StoreError) -> CredentialRecordRow? {
        try check()
        return await base.revokeCredential(id: id, at: time)
    }

    func createFlow(_ flow: FlowRecord, audit: AuditAppend?) async throws(StoreError) {
        try check()
        try await base.createFlow(flow, audit: audit)
    }

    func flow(id: String) async throws(StoreError) -> FlowRecord? {
        try check()
        return await base.flow(id: id)
    }

    func updateFlow(
        id: String,
        expectedStatuses: Set<FlowStatus>,
        at time: Date,
        update: FlowUpdate
    ) async throws(StoreError) -> FlowRecord? {
        try check()
        return await base.updateFlow(id: id, expectedStatuses: expectedStatuses, at: time, update: update)
    }

    func consumeChallenge(flowID: String, challengeHash: [UInt8], at time: Date) async throws(StoreError) -> FlowRecord?
    {
        try check()
        return await base.consumeChallenge(flowID: flowID, challengeHash: challengeHash, at: time)
    }

    func redeemResult(flowID: String, resultTokenHash: [UInt8], at time: Date) async throws(StoreError) -> FlowRecord? {
        try check()
        return await base.redeemResult(flowID: flowID, resultTokenHash: resultTokenHash, at: time)
    }

    func insertFirstCredential(
        _ credential: CredentialRecordRow,
        displayName: String,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError) {
        try check()
        try await base.insertFirstCredential(
            credential,
            displayName: displayName,
            flowID: flowID,
            flowUpdate: flowUpdate,
            at: time,
            audit: audit
        )
    }

    func insertCredential(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError) {
        try check()
        try await base.insertCredential(
            credential,
            maximumActive: maximumActive,
            flowID: flowID,
            flowUpdate: flowUpdate,
            at: time,
            audit: audit
        )
    }

    func settleReservation(
        flowID: String,
        finalize: Bool,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow? {
        try check()
        return await base.settleReservation(flowID: flowID, finalize: finalize, flowUpdate: flowUpdate, at: time)
    }

    @discardableResult
    func appendAuditEvent(_ event: AuditEvent, webhooks: [WebhookMessage]) async throws(StoreError) -> AuditEvent {
        try check()
        return try await base.appendAuditEvent(event, webhooks: webhooks)
    }

    func auditEvents(after: Int64, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent] {
        try check()
        return await base.auditEvents(after: after, limit: limit, userID: userID)
    }

    func auditEvents(before: Int64?, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent] {
        try check()
        return await base.auditEvents(before: before, limit: limit, userID: userID)
    }

    func auditChainHead() async throws(StoreError) -> AuditChainHead? {
        try check()
        return await base.auditChainHead()
    }

    @discardableResult
    func appendAuditCheckpoint(_ checkpoint: AuditCheckpoint) async throws(StoreError) -> Bool {
        try check()
        return await base.appendAuditCheckpoint(checkpoint)
    }

    func auditCheckpoints(after: Int64, limit: Int) async throws(StoreError) -> [AuditCheckpoint] {
        try check()
        return await base.auditCheckpoints(after: after, limit: limit)
    }

    func countLimitEvent(keyHash: [UInt8], window: TimeInterval, at time: Date) async throws(StoreError) -> LimitWindow
    {
        try check()
        let error = countFailure.withLock { failure -> StoreError? in
            guard failure.successes == 0 else {
                failure.successes -= 1
                return nil
            }
            return failure.error
        }
        if let error { throw error }
        return await base.countLimitEvent(keyHash: keyHash, window: window, at: time)
    }

    func releaseLimitEvent(keyHash: [UInt8], at time: Date) async throws(StoreError) {
        try check()
        if let error = releaseFailure.withLock({ $0 }) { throw error }
        await base.releaseLimitEvent(keyHash: keyHash, at: time)
    }

    func limitWindows(keyHashes: [[UInt8]], at time: Date) async throws(StoreError) -> [LimitWindow] {
        try check()
        return await base.limitWindows(keyHashes: keyHashes, at: time)
    }

    func createWebSession(_ session: WebSessionRecord, maximumPerUser: Int) async throws(StoreError) {
        try check()
        try await base.createWebSession(session, maximumPerUser: maximumPerUser)
    }

    func webSession(secretHash: [UInt8], at time: Date) async throws(StoreError) -> WebSessionRecord? {
        try check()
        return await base.webSession(secretHash: secretHash, at: time)
    }

    func webSessions(userID: String, at time: Date) async throws(StoreError) -> [WebSessionRecord] {
        try check()
        return await base.webSessions(userID: userID, at: time)
    }

    func webSessions(
        userID: String?,
        at time: Date,
        offset: Int,
        limit: Int
    ) async throws(StoreError)
        -> [WebSessionRecord]
    {
        try check()
        return await base.webSessions(userID: userID, at: time, offset: offset, limit: limit)
    }

    func deleteWebSession(id: String) async throws(StoreError) -> Bool {
        try check()
        return await base.deleteWebSession(id: id)
    }

    func deleteWebSessions(userID: String, credentialID: [UInt8]?) async throws(StoreError) -> Int {
        try check()
        return await base.deleteWebSessions(userID: userID, credentialID: credentialID)
    }

    func signOutEverywhere(userID: String, at time: Date) async throws(StoreError) -> Int {
        try check()
        return await base.signOutEverywhere(userID: userID, at: time)
    }

    func createWorkflowRun(_ run: WorkflowRunRecord) async throws(StoreError) {
        try check()
        try await base.createWorkflowRun(run)
    }

    func workflowRun(id: String) async throws(StoreError) -> WorkflowRunRecord? {
        try checkWorkflowRuns()
        return await base.workflowRun(id: id)
    }

    func workflowRun(flowID: String) async throws(StoreError) -> WorkflowRunRecord? {
        try check()
        return await base.workflowRun(flowID: flowID)
    }

    func decideWorkflowRun(
        id: String,
        from: Set<WorkflowRunRecord.Status>,
        to status: WorkflowRunRecord.Status,
        faceMatch: WorkflowRunRecord.FaceMatch?,
        at time: Date
    ) async throws(StoreError) -> WorkflowRunRecord? {
        try checkWorkflowRuns()
        return await base.decideWorkflowRun(id: id, from: from, to: status, faceMatch: faceMatch, at: time)
    }

    func purgedRegistration(id: String) async throws(StoreError) -> Date? {
        try check()
        return await base.purgedRegistration(id: id)
    }

    func claimIdempotencyKey(
        _ claim: IdempotencyClaim,
        at time: Date
    ) async throws(StoreError) -> IdempotencyClaimResult {
        try check()
        return await base.claimIdempotencyKey(claim, at: time)
    }

    func finishIdempotencyKey(keyHash: [UInt8], requestHash: [UInt8], answer: IdempotentAnswer) async throws(StoreError)
    {
        try check()
        await base.finishIdempotencyKey(keyHash: keyHash, requestHash: requestHash, answer: answer)
    }

    func releaseIdempotencyKey(keyHash: [UInt8], requestHash: [UInt8]) async throws(StoreError) {
        try check()
        await base.releaseIdempotencyKey(keyHash: keyHash, requestHash: requestHash)
    }

    func purge(before time: Date, auditBefore: Date?, limit: Int) async throws(StoreError) -> PurgeReport {
        try check()
        return await base.purge(before: time, auditBefore: auditBefore, limit: limit)
    }

    func user(name: String) async throws(StoreError) -> UserRecord? {
        try check()
        return await base.user(name: name)
    }
}

extension FailingStore: WebhookOutboxStore {
    func claimWebhookDeliveries(
        at time: Date,
        leaseUntil: Date,
        limit: Int,
        excluding resting: [String]
    ) async throws(StoreError)
        -> [WebhookDelivery]
    {
        try check()
        return await base.claimWebhookDeliveries(at: time, leaseUntil: leaseUntil, limit: limit, excluding: resting)
    }

    @discardableResult
    func recordWebhookAttempt(_ attempt: WebhookAttempt) async throws(StoreError) -> Bool {
        try check()
        return await base.recordWebhookAttempt(attempt)
    }

    func webhookDeliveries(endpoint: String, before: Int64?, limit: Int) async throws(StoreError) -> [WebhookDelivery] {
        try check()
        return await base.webhookDeliveries(endpoint: endpoint, before: before, limit: limit)
    }

    func resendWebhookDelivery(id: Int64, at time: Date) async throws(StoreError) -> WebhookDelivery? {
        try check()
        return await base.resendWebhookDelivery(id: id, at: time)
    }

    func purgeWebhookDeliveries(finishedBefore time: Date, limit: Int) async throws(StoreError) -> Int {
        try check()
        return await base.purgeWebhookDeliveries(finishedBefore: time, limit: limit)
    }
}
