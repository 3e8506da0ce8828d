public import Foundation

/// Identity-verification runs: one per flow, decided by the vendor. Part of ``PasskeyStore``.
public protocol WorkflowRunStore: Sendable {
    /// Inserts the run: `.duplicate` when its id is known or its flow already has a run (one run per flow),
    /// `.notFound` when there is no user `run.userID`. A refused insert changes nothing.
    func createWorkflowRun(_ run: WorkflowRunRecord) async throws(StoreError)
    /// The run with this id, expired or not.
    func workflowRun(id: String) async throws(StoreError) -> WorkflowRunRecord?
    /// The run of a flow, if it has one (expired or not).
    func workflowRun(flowID: String) async throws(StoreError) -> WorkflowRunRecord?
    /// Records a decision as a compare-and-set: applies only while the run's status is one of `from` and it has not
    /// expired at `time` (its `expiresAt` is later); sets status, faceMatch (nil leaves it unchanged) and
    /// updatedAt = time. Returns the updated run, or nil when the precondition did not hold.
    ///
    /// Of racing decisions from the same status, on one server or on several sharing a database, exactly one
    /// succeeds, and the status stored is the one it wrote.
    func decideWorkflowRun(
        id: String,
        from: Set<WorkflowRunRecord.Status>,
        to status: WorkflowRunRecord.Status,
        faceMatch: WorkflowRunRecord.FaceMatch?,
        at time: Date
    ) async throws(StoreError) -> WorkflowRunRecord?
    /// Records the vendor's own reference of a run, once the provider has created it; returns whether the run exists.
    func setWorkflowRunVendorReference(id: String, vendorReference: String) async throws(StoreError) -> Bool
    /// Gives back a run that was stored before its provider was asked to create it, when the provider did not: deletes
    /// it if its status is still `pending`, so that its flow may start a run again. Returns whether it was deleted; a
    /// run decided meanwhile stays.
    func releaseWorkflowRun(id: String) async throws(StoreError) -> Bool
    /// Records a vendor's decision and spends its event, in one atomic operation, so that a decision is never spent
    /// without being applied nor applied twice:
    ///
    /// 1. the event is counted in the limit window of `eventKeyHash` (as
    ///    ``LimitStore/countLimitEvent(keyHash:window:at:)`` with `eventWindow`); when it had been counted before in a
    ///    window that has not ended, the answer is ``WorkflowRunEventOutcome/replayed`` and the run is left alone;
    /// 2. otherwise the decision is applied as ``decideWorkflowRun(id:from:to:faceMatch:at:)`` does; when that does
    ///    not apply, the count is taken back (the event stays unspent, so the vendor may send it again) and the answer
    ///    is ``WorkflowRunEventOutcome/refused``.
    ///
    /// Of racing deliveries of one event, on one server or on several sharing a database, at most one is decided.
    func decideWorkflowRun(
        id: String,
        from: Set<WorkflowRunRecord.Status>,
        to status: WorkflowRunRecord.Status,
        faceMatch: WorkflowRunRecord.FaceMatch?,
        at time: Date,
        eventKeyHash: [UInt8],
        eventWindow: TimeInterval
    ) async throws(StoreError) -> WorkflowRunEventOutcome
}
