import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore {
    @discardableResult
    public func appendAuditEvent(_ event: AuditEvent) async throws(StoreError) -> AuditEvent {
        let details: String
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            details = String(decoding: try encoder.encode(event.details), as: UTF8.self)
        } catch {
            throw StoreError(.corrupt, "Could not encode the audit event's details: \(error).")
        }
        let sequence = try await transaction(doing: "append the audit event") { connection in
            // Appends queue on this lock until the previous one commits, so sequence numbers become visible in
            // order: a reader that has seen event n has seen every event before it (a bare BIGSERIAL lets a lower
            // number commit after a higher one, and a reader paging by sequence would skip it).
            try await connection.rows(
                "SELECT pg_advisory_xact_lock(\(Migrations.lockClass), 'audit_events'::regclass::oid::integer)"
            )
            let rows = try await connection.rows(
                """
                INSERT INTO audit_events (time, actor, action, user_id, subject, request_id, details)
                VALUES (\(event.time), \(event.actor), \(event.action), \(event.userID)::text, \(event.subject)::text,
                        \(event.requestID)::text, \(details)::jsonb)
                RETURNING sequence
                """
            )
            guard let row = rows.first else {
                throw StoreError(.corrupt, "The audit event's insert returned no sequence number.")
            }
            return try RowReader(row, record: "audit event")("sequence", as: Int64.self)
        }
        var appended = event
        appended.sequence = sequence
        return appended
    }

    public func auditEvents(after: Int64, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent] {
        var events: [AuditEvent] = []
        for row in try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.auditEvent)) FROM audit_events
            WHERE sequence > \(after) AND (\(userID)::text IS NULL OR user_id = \(userID)::text)
            ORDER BY sequence
            LIMIT \(Int64(max(0, limit)))
            """,
            doing: "read the audit log"
        ) {
            events.append(try AuditEvent(row))
        }
        return events
    }
}
