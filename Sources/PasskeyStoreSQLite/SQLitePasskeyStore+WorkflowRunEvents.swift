public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore {
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
        let placeholders = Array(repeating: "?", count: expected.count).joined(separator: ", ")
        // One operation under the file's write lock: the event is counted, the decision applied, and the count taken
        // back when the decision did not apply, with nothing of another process in between.
        return try await connection.session { db in
            let counted = try db.rows(
                """
                INSERT INTO limit_windows (key_hash, window_start, window_end, count) VALUES (?1, ?2, ?3, 1)
                ON CONFLICT (key_hash) DO UPDATE SET
                    window_start = CASE WHEN window_end <= ?2 THEN ?2 ELSE window_start END,
                    window_end = CASE WHEN window_end <= ?2 THEN ?3 ELSE window_end END,
                    count = CASE WHEN window_end <= ?2 THEN 1 ELSE count + 1 END
                RETURNING count
                """,
                [Bind.bytes(eventKeyHash), Bind.date(time), Bind.date(time + eventWindow)]
            )
            let count = try counted.first.map { row throws(StoreError) in
                try RowReader(row: row, table: "limit_windows").int("count")
            }
            guard count == 1 else { return .replayed }
            let decided =
                expected.isEmpty
                ? nil
                : try db.rows(
                    """
                    UPDATE workflow_runs SET status = ?, face_match = coalesce(?, face_match), updated_at = ?
                    WHERE id = ? AND status IN (\(placeholders)) AND expires_at > ?
                    RETURNING \(WorkflowRunRows.columns)
                    """,
                    [Bind.text(status.rawValue), Bind.text(faceMatch?.rawValue), Bind.date(time), Bind.text(id)]
                        + expected.map { Bind.text($0) } + [Bind.date(time)]
                ).first.map(WorkflowRunRows.decode)
            guard let decided else {
                try db.execute(
                    "UPDATE limit_windows SET count = count - 1 WHERE key_hash = ? AND count > 0",
                    [Bind.bytes(eventKeyHash)]
                )
                return .refused
            }
            return .decided(decided)
        }
    }
}
