public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: WorkflowRunStore {
    public func createWorkflowRun(_ run: WorkflowRunRecord) async throws(StoreError) {
        // One INSERT: the primary key refuses a known id, the unique index on flow_id a second run of the flow, and
        // the foreign key a missing user.
        try await connection.session { db in
            try db.execute(
                "INSERT INTO workflow_runs (\(WorkflowRunRows.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                WorkflowRunRows.binds(run)
            )
        }
    }

    public func workflowRun(id: String) async throws(StoreError) -> WorkflowRunRecord? {
        try await connection.session { db in
            try db.rows(
                "SELECT \(WorkflowRunRows.columns) FROM workflow_runs WHERE id = ?",
                [Bind.text(id)]
            ).first.map(WorkflowRunRows.decode)
        }
    }

    public func workflowRun(flowID: String) async throws(StoreError) -> WorkflowRunRecord? {
        try await connection.session { db in
            try db.rows(
                "SELECT \(WorkflowRunRows.columns) FROM workflow_runs WHERE flow_id = ?",
                [Bind.text(flowID)]
            ).first.map(WorkflowRunRows.decode)
        }
    }

    public func decideWorkflowRun(
        id: String,
        from: Set<WorkflowRunRecord.Status>,
        to status: WorkflowRunRecord.Status,
        faceMatch: WorkflowRunRecord.FaceMatch?,
        at time: Date
    ) async throws(StoreError) -> WorkflowRunRecord? {
        guard !from.isEmpty else { return nil }
        let expected = from.map(\.rawValue).sorted()
        let placeholders = Array(repeating: "?", count: expected.count).joined(separator: ", ")
        let binds =
            [Bind.text(status.rawValue), Bind.text(faceMatch?.rawValue), Bind.date(time), Bind.text(id)]
            + expected.map { Bind.text($0) } + [Bind.date(time)]
        // One conditional UPDATE, which takes the write lock before it reads the row: of racing decisions from the
        // same status, the first to write wins and the others match no row.
        return try await connection.session { db in
            try db.rows(
                """
                UPDATE workflow_runs SET status = ?, face_match = coalesce(?, face_match), updated_at = ?
                WHERE id = ? AND status IN (\(placeholders)) AND expires_at > ?
                RETURNING \(WorkflowRunRows.columns)
                """,
                binds
            ).first.map(WorkflowRunRows.decode)
        }
    }
}

enum WorkflowRunRows {
    static let columns = """
        id, purpose, user_id, flow_id, status, face_match, vendor_reference, created_at, updated_at, expires_at
        """

    static func decode(_ row: Row) throws(StoreError) -> WorkflowRunRecord {
        let reader = RowReader(row: row, table: "workflow_runs")
        return WorkflowRunRecord(
            id: try reader.text("id"),
            purpose: try value(of: reader, "purpose"),
            userID: try reader.text("user_id"),
            flowID: try reader.text("flow_id"),
            status: try value(of: reader, "status"),
            faceMatch: try reader.optionalText("face_match").map { text throws(StoreError) in
                try value(text, "face_match")
            },
            vendorReference: try reader.optionalText("vendor_reference"),
            createdAt: try reader.date("created_at"),
            updatedAt: try reader.date("updated_at"),
            expiresAt: try reader.date("expires_at")
        )
    }

    static func binds(_ run: WorkflowRunRecord) -> [SQLValue] {
        [
            Bind.text(run.id), Bind.text(run.purpose.rawValue), Bind.text(run.userID), Bind.text(run.flowID),
            Bind.text(run.status.rawValue), Bind.text(run.faceMatch?.rawValue), Bind.text(run.vendorReference),
            Bind.date(run.createdAt), Bind.date(run.updatedAt), Bind.date(run.expiresAt),
        ]
    }

    private static func value<Value: RawRepresentable<String>>(
        of reader: RowReader,
        _ column: String
    ) throws(StoreError) -> Value {
        try value(try reader.text(column), column)
    }

    /// The enumeration's case named `text`; an unknown name is `.corrupt`.
    private static func value<Value: RawRepresentable<String>>(
        _ text: String,
        _ column: String
    ) throws(StoreError) -> Value {
        guard let value = Value(rawValue: text) else {
            throw StoreError(.corrupt, "A stored workflow_runs row is invalid: its \(column) '\(text)' is unknown.")
        }
        return value
    }
}

extension SQLitePasskeyStore {
    public func setWorkflowRunVendorReference(id: String, vendorReference: String) async throws(StoreError) -> Bool {
        try await connection.session { db in
            try !db.rows(
                "UPDATE workflow_runs SET vendor_reference = ? WHERE id = ? RETURNING id",
                [Bind.text(vendorReference), Bind.text(id)]
            ).isEmpty
        }
    }

    public func releaseWorkflowRun(id: String) async throws(StoreError) -> Bool {
        try await connection.session { db in
            try !db.rows(
                "DELETE FROM workflow_runs WHERE id = ? AND status = 'pending' RETURNING id",
                [Bind.text(id)]
            ).isEmpty
        }
    }
}
