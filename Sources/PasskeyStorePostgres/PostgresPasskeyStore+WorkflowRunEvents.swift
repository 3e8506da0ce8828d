public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore {
    public func decideWorkflowRun(
        id: String,
        from: Set<WorkflowRunRecord.Status>,
        to status: WorkflowRunRecord.Status,
        faceMatch: WorkflowRunRecord.FaceMatch?,
        at time: Date,
        eventKeyHash: [UInt8],
        eventWindow: TimeInterval
    ) async throws(StoreError) -> WorkflowRunEventOutcome {
        let expected = from.map(\.rawValue).sorted()
        // Counting the event locks its window's row until the transaction ends: a racing delivery of the same event
        // waits for it, then counts 2 when this one decided, or 1 again when this one gave its count back.
        return try await transaction(doing: "record the identity-verification decision") {
            connection throws -> WorkflowRunEventOutcome in
            let counted = try await connection.rows(
                CountLimitEvent(keyHash: eventKeyHash, start: time, end: time + eventWindow)
            )
            guard let window = counted.first, try LimitWindow(window).count == 1 else { return .replayed }
            guard
                let row = try await connection.rows(
                    """
                    UPDATE workflow_runs
                    SET status = \(status.rawValue), face_match = coalesce(\(faceMatch?.rawValue)::text, face_match),
                        updated_at = \(time)
                    WHERE id = \(id) AND status = ANY(\(expected)::text[]) AND expires_at > \(time)
                    RETURNING \(unescaped: Columns.list(Columns.workflowRun))
                    """
                ).first
            else {
                try await connection.rows(ReleaseLimitEvent(keyHash: eventKeyHash, time: time))
                return .refused
            }
            return .decided(try WorkflowRunRecord(row))
        }
    }
}
