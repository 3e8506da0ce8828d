import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: AuditStore {
    @discardableResult
    public func appendAuditEvent(
        _ event: AuditEvent,
        webhooks: [WebhookMessage]
    ) async throws(StoreError) -> AuditEvent {
        let details = try Bind.json(event.details)
        return try await connection.session { db in
            let rows = try db.rows(
                """
                INSERT INTO audit_events (time, actor, action, user_id, subject, request_id, details)
                VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING sequence
                """,
                [
                    Bind.date(event.time), Bind.text(event.actor), Bind.text(event.action), Bind.text(event.userID),
                    Bind.text(event.subject), Bind.text(event.requestID), details,
                ]
            )
            guard case .integer(let sequence) = rows.first?.column("sequence") else {
                throw StoreError(.corrupt, "The database returned no sequence number for an audit event.")
            }
            try Self.insertWebhookMessages(webhooks, into: db)
            var event = event
            event.sequence = sequence
            return event
        }
    }

    public func auditEvents(after: Int64, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent] {
        guard limit > 0 else { return [] }
        return try await connection.session { db in
            var sql = "SELECT \(AuditRows.columns) FROM audit_events WHERE sequence > ?"
            var binds = [Bind.integer(after)]
            if let userID {
                sql += " AND user_id = ?"
                binds.append(Bind.text(userID))
            }
            sql += " ORDER BY sequence LIMIT ?"
            binds.append(Bind.integer(limit))
            return try db.rows(sql, binds).map(AuditRows.decode)
        }
    }

    public func auditEvents(before: Int64?, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent] {
        guard limit > 0 else { return [] }
        return try await connection.session { db in
            // Read backwards along the primary key, or along audit_events_by_user (user_id, sequence) for one user.
            var conditions: [String] = []
            var binds: [SQLValue] = []
            if let before {
                conditions.append("sequence < ?")
                binds.append(Bind.integer(before))
            }
            if let userID {
                conditions.append("user_id = ?")
                binds.append(Bind.text(userID))
            }
            var sql = "SELECT \(AuditRows.columns) FROM audit_events"
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            sql += " ORDER BY sequence DESC LIMIT ?"
            binds.append(Bind.integer(limit))
            return try db.rows(sql, binds).map(AuditRows.decode)
        }
    }
}
