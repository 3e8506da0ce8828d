import Foundation
import PasskeyStorage

extension FailingStore {
    func setWorkflowRunVendorReference(id: String, vendorReference: String) async throws(StoreError) -> Bool {
        try check()
        return await base.setWorkflowRunVendorReference(id: id, vendorReference: vendorReference)
    }

    func releaseWorkflowRun(id: String) async throws(StoreError) -> Bool {
        try check()
        return await base.releaseWorkflowRun(id: id)
    }

    func decideWorkflowRun(
        id: String,
        from: Set<WorkflowRunRecord.Status>,
        to status: WorkflowRunRecord.Status,
        faceMatch: WorkflowRunRecord.FaceMatch?,
        at time: Date,
        eventKeyHash: [UInt8],
        eventWindow: TimeInterval
    ) async throws(StoreError) -> WorkflowRunEventOutcome {
        try checkWorkflowRuns()
        return await base.decideWorkflowRun(
            id: id,
            from: from,
            to: status,
            faceMatch: faceMatch,
            at: time,
            eventKeyHash: eventKeyHash,
            eventWindow: eventWindow
        )
    }
}
