public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: WorkflowRunStore {
    public func createWorkflowRun(_ run: WorkflowRunRecord) async throws(StoreError) {
        // One INSERT: the primary key refuses a known id, the unique flow_id a second run of the flow, and the
        // foreign key a missing user (or one deleted meanwhile).
        _ = try await rows(
            """
            INSERT INTO workflow_runs (\(unescaped: Columns.list(Columns.workflowRun)))
            VALUES (
                \(run.id), \(run.purpose.rawValue), \(run.userID), \(run.flowID), \(run.status.rawValue),
                \(run.faceMatch?.rawValue)::text, \(run.vendorReference)::text, \(run.createdAt), \(run.updatedAt),
                \(run.expiresAt)
            )
            """,
            doing: "create the identity-verification run"
        )
    }

    public func workflowRun(id: String) async throws(StoreError) -> WorkflowRunRecord? {
        try await rows(
            "SELECT \(unescaped: Columns.list(Columns.workflowRun)) FROM workflow_runs WHERE id = \(id)",
            doing: "read the identity-verification run"
        )
        .first.map { row throws(StoreError) in try WorkflowRunRecord(row) }
    }

    public func workflowRun(flowID: String) async throws(StoreError) -> WorkflowRunRecord? {
        try await rows(
            "SELECT \(unescaped: Columns.list(Columns.workflowRun)) FROM workflow_runs WHERE flow_id = \(flowID)",
            doing: "read the flow's identity-verification run"
        )
        .first.map { row throws(StoreError) in try WorkflowRunRecord(row) }
    }

    public func decideWorkflowRun(
        id: String,
        from: Set<WorkflowRunRecord.Status>,
        to status: WorkflowRunRecord.Status,
        faceMatch: WorkflowRunRecord.FaceMatch?,
        at time: Date
    ) async throws(StoreError) -> WorkflowRunRecord? {
        guard !from.isEmpty else { return nil }
        // One conditional UPDATE: a racing decision that locked the row first makes this one check its conditions
        // again against what that one committed, and match nothing.
        return try await rows(
            """
            UPDATE workflow_runs
            SET status = \(status.rawValue), face_match = coalesce(\(faceMatch?.rawValue)::text, face_match),
                updated_at = \(time)
            WHERE id = \(id) AND status = ANY(\(from.map(\.rawValue).sorted())::text[]) AND expires_at > \(time)
            RETURNING \(unescaped: Columns.list(Columns.workflowRun))
            """,
            doing: "record the identity-verification decision"
        )
        .first.map { row throws(StoreError) in try WorkflowRunRecord(row) }
    }
}

extension WorkflowRunRecord {
    init(_ row: PostgresRow) throws(StoreError) {
        let read = RowReader(row, record: "identity-verification run")
        let purposeText: String = try read("purpose")
        guard let purpose = Purpose(rawValue: purposeText) else {
            throw read.corrupt("purpose", "is '\(purposeText)', not a purpose of identity verification")
        }
        let statusText: String = try read("status")
        guard let status = Status(rawValue: statusText) else {
            throw read.corrupt("status", "is '\(statusText)', not a status of identity verification")
        }
        let faceMatchText: String? = try read("face_match")
        let faceMatch = faceMatchText.flatMap(FaceMatch.init(rawValue:))
        guard faceMatch != nil || faceMatchText == nil else {
            throw read.corrupt("face_match", "is '\(faceMatchText ?? "")', not a face match outcome")
        }
        self.init(
            id: try read("id"),
            purpose: purpose,
            userID: try read("user_id"),
            flowID: try read("flow_id"),
            status: status,
            faceMatch: faceMatch,
            vendorReference: try read("vendor_reference"),
            createdAt: try read("created_at"),
            updatedAt: try read("updated_at"),
            expiresAt: try read("expires_at")
        )
    }
}

extension PostgresPasskeyStore {
    public func setWorkflowRunVendorReference(id: String, vendorReference: String) async throws(StoreError) -> Bool {
        let updated = try await rows(
            "UPDATE workflow_runs SET vendor_reference = \(vendorReference) WHERE id = \(id) RETURNING id",
            doing: "record the identity-verification run's vendor reference"
        )
        return !updated.isEmpty
    }

    public func releaseWorkflowRun(id: String) async throws(StoreError) -> Bool {
        let deleted = try await rows(
            "DELETE FROM workflow_runs WHERE id = \(id) AND status = 'pending' RETURNING id",
            doing: "release the identity-verification run"
        )
        return !deleted.isEmpty
    }
}
