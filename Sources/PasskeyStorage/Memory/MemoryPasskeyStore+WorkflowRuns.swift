public import Foundation

extension MemoryPasskeyStore: WorkflowRunStore {
    public func createWorkflowRun(_ run: WorkflowRunRecord) throws(StoreError) {
        guard workflowRunsByID[run.id] == nil else {
            throw StoreError(.duplicate, "An identity-verification run with id \(run.id) exists.")
        }
        guard !workflowRunsByID.values.contains(where: { $0.flowID == run.flowID }) else {
            throw StoreError(.duplicate, "The flow \(run.flowID) has an identity-verification run already.")
        }
        guard user(id: run.userID) != nil else {
            throw StoreError(.notFound, "No user \(run.userID) for the identity-verification run.")
        }
        workflowRunsByID[run.id] = run
    }

    public func workflowRun(id: String) -> WorkflowRunRecord? { workflowRunsByID[id] }

    public func workflowRun(flowID: String) -> WorkflowRunRecord? {
        workflowRunsByID.values.first { $0.flowID == flowID }
    }

    public func decideWorkflowRun(
        id: String,
        from: Set<WorkflowRunRecord.Status>,
        to status: WorkflowRunRecord.Status,
        faceMatch: WorkflowRunRecord.FaceMatch?,
        at time: Date
    ) -> WorkflowRunRecord? {
        guard var run = workflowRunsByID[id], from.contains(run.status), run.isLive(at: time) else { return nil }
        run.status = status
        if let faceMatch { run.faceMatch = faceMatch }
        run.updatedAt = time
        workflowRunsByID[id] = run
        return run
    }
}

extension MemoryPasskeyStore {
    public func setWorkflowRunVendorReference(id: String, vendorReference: String) -> Bool {
        guard var run = workflowRunsByID[id] else { return false }
        run.vendorReference = vendorReference
        workflowRunsByID[id] = run
        return true
    }

    public func releaseWorkflowRun(id: String) -> Bool {
        guard let run = workflowRunsByID[id], run.status == .pending else { return false }
        workflowRunsByID[id] = nil
        return true
    }

    public func decideWorkflowRun(
        id: String,
        from: Set<WorkflowRunRecord.Status>,
        to status: WorkflowRunRecord.Status,
        faceMatch: WorkflowRunRecord.FaceMatch?,
        at time: Date,
        eventKeyHash: [UInt8],
        eventWindow: TimeInterval
    ) -> WorkflowRunEventOutcome {
        // An actor: the three steps run without anything in between.
        guard countLimitEvent(keyHash: eventKeyHash, window: eventWindow, at: time).count == 1 else { return .replayed }
        guard let run = decideWorkflowRun(id: id, from: from, to: status, faceMatch: faceMatch, at: time) else {
            releaseLimitEvent(keyHash: eventKeyHash, at: time)
            return .refused
        }
        return .decided(run)
    }
}
