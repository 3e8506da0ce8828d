import Foundation
public import PasskeyStorage
import PostgresNIO
import Synchronization

extension PostgresPasskeyStore: AuditStore {
    @discardableResult
    public func appendAuditEvent(
        _ event: AuditEvent,
        webhooks: [WebhookMessage]
    ) async throws(StoreError) -> AuditEvent {
        do {
            var appended = event
            appended.sequence = try await auditLog.append(AuditAppend(event: event, webhooks: webhooks)) {
                batch throws(StoreError) in
                try await self.insertAuditEvents(batch)
            }
            return appended
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.unavailable, "Could not append the audit event: \(error).")
        }
    }

    /// Inserts `appends` in one statement, their events and their webhook messages, and returns the events'
    /// sequence numbers, in order.
    ///
    /// Appends queue on an advisory lock until the previous one commits, so sequence numbers become visible in
    /// order: a reader that has seen event n has seen every event before it (a bare BIGSERIAL lets a lower number
    /// commit after a higher one, and a reader paging by sequence would skip it). The lock is held until the commit
    /// is on disk, so the events that wait for it in this process are written together, in one statement: one
    /// lock, one commit and one disk sync for all of them rather than one each.
    private func insertAuditEvents(_ appends: [AuditAppend]) async throws(StoreError) -> [Int64] {
        let json: String
        let webhooks: String
        do {
            json = String(
                decoding: try JSONEncoder().encode(appends.enumerated().map { AuditRow(index: $0, event: $1.event) }),
                as: UTF8.self
            )
            webhooks = String(
                decoding: try JSONEncoder().encode(appends.flatMap(\.webhooks).map(OutboxRow.init)),
                as: UTF8.self
            )
        } catch {
            throw StoreError(.corrupt, "Could not encode the audit event's details: \(error).")
        }
        let count = appends.count
        var sequences: [Int64] = []
        for row in try await rows(
            InsertAuditEvents(json: json, webhooks: webhooks),
            doing: count == 1 ? "append the audit event" : "append \(count) audit events"
        ) {
            sequences.append(try RowReader(row, record: "audit event")("sequence", as: Int64.self))
        }
        guard sequences.count == count else {
            throw StoreError(.corrupt, "Inserting \(count) audit events returned \(sequences.count) sequence numbers.")
        }
        return sequences.sorted()
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

    public func auditEvents(before: Int64?, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent] {
        var events: [AuditEvent] = []
        // A backward scan of the primary key, or of audit_events_user (user_id, sequence) for one user.
        for row in try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.auditEvent)) FROM audit_events
            WHERE (\(before)::bigint IS NULL OR sequence < \(before)::bigint)
              AND (\(userID)::text IS NULL OR user_id = \(userID)::text)
            ORDER BY sequence DESC
            LIMIT \(Int64(max(0, limit)))
            """,
            doing: "read the audit log"
        ) {
            events.append(try AuditEvent(row))
        }
        return events
    }
}

/// Inserts the events of a JSON array of ``AuditRow``s under the audit log's advisory lock, which the statement's
/// transaction holds until it has committed, and returns their sequence numbers. The lock is taken first (the
/// `EXISTS` is a one-time filter, evaluated before the first row is read), the sequence numbers are drawn after
/// the rows are sorted by `index`, so they increase in that order too. The same statement writes the webhook
/// messages of a JSON array of ``OutboxRow``s to the outbox: a data-modifying `WITH` runs once, in the
/// statement's transaction, so the events and their messages commit together.
struct InsertAuditEvents: StoreStatement {
    static let sql = """
        WITH lock AS MATERIALIZED (
            SELECT pg_advisory_xact_lock(\(Migrations.lockClass), 'audit_events'::regclass::oid::integer)
        ), outbox AS (
            INSERT INTO webhook_deliveries (message_id, endpoint, event_type, payload, created_at, status, attempts,
                next_attempt_at)
            SELECT w.message_id, w.endpoint, w.event_type, w.payload,
                   timestamptz '2000-01-01 00:00:00+00' + w.micros * interval '1 microsecond', 'pending', 0,
                   timestamptz '2000-01-01 00:00:00+00' + w.micros * interval '1 microsecond'
            FROM jsonb_to_recordset($2::jsonb) AS w(
                message_id text, endpoint text, event_type text, payload text, micros bigint)
            WHERE EXISTS (SELECT 1 FROM lock)
        )
        INSERT INTO audit_events (time, actor, action, user_id, subject, request_id, details)
        SELECT timestamptz '2000-01-01 00:00:00+00' + r.micros * interval '1 microsecond',
               r.actor, r.action, r.user_id, r.subject, r.request_id, r.details
        FROM jsonb_to_recordset($1::jsonb) AS r(
            index integer, micros bigint, actor text, action text, user_id text, subject text, request_id text, details jsonb)
        WHERE EXISTS (SELECT 1 FROM lock)
        ORDER BY r.index
        RETURNING sequence
        """
    let json: String
    let webhooks: String

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 2)
        binds.append(json)
        binds.append(webhooks)
        return binds
    }
}

/// An audit event as one element of the JSON array that `jsonb_to_recordset` reads. The time is in microseconds
/// since 2000-01-01, truncated, exactly as PostgresNIO binds a `Date` to a `timestamptz`.
private struct AuditRow: Encodable {
    let index: Int
    let micros: Int64
    let actor: String
    let action: String
    let user_id: String?
    let subject: String?
    let request_id: String?
    let details: [String: String]

    static let postgresEpoch = Date(timeIntervalSince1970: 946_684_800)

    init(index: Int, event: AuditEvent) {
        self.index = index
        micros = Int64(event.time.timeIntervalSince(Self.postgresEpoch) * 1_000_000)
        actor = event.actor
        action = event.action
        user_id = event.userID
        subject = event.subject
        request_id = event.requestID
        details = event.details
    }
}

/// A webhook message as one element of the JSON array the outbox's insert reads; the time as in ``AuditRow``.
private struct OutboxRow: Encodable {
    let message_id: String
    let endpoint: String
    let event_type: String
    let payload: String
    let micros: Int64

    init(_ message: WebhookMessage) {
        message_id = message.id
        endpoint = message.endpoint
        event_type = message.eventType
        payload = message.payload
        micros = Int64(message.createdAt.timeIntervalSince(AuditRow.postgresEpoch) * 1_000_000)
    }
}

/// An audit event to append and the webhook messages written with it.
struct AuditAppend: Sendable {
    let event: AuditEvent
    let webhooks: [WebhookMessage]
}

/// The audit events waiting to be written by this store, and whether a writer is at work. The first append that
/// finds no writer becomes it: it writes everything queued, in arrival order, batch after batch, until the queue
/// is empty; appends that arrive meanwhile wait for the batch that takes them.
final class AuditLogWriter: Sendable {
    private struct Waiting {
        let event: AuditAppend
        let continuation: CheckedContinuation<Int64, any Error>
    }

    private struct State {
        var queue: [Waiting] = []
        var writing = false
    }

    /// The most events one statement writes.
    static let batchLimit = 256

    private let state = Mutex(State())

    /// Queues `event` and returns its sequence number once a batch that holds it has committed.
    func append(
        _ event: AuditAppend,
        insert: @escaping @Sendable ([AuditAppend]) async throws(StoreError) -> [Int64]
    ) async throws -> Int64 {
        try await withCheckedThrowingContinuation { continuation in
            let startWriter = state.withLock { state in
                state.queue.append(Waiting(event: event, continuation: continuation))
                guard !state.writing else { return false }
                state.writing = true
                return true
            }
            if startWriter {
                // Not a child of the caller's task: a cancelled request must not cancel the others' batch.
                Task { await self.write(insert) }
            }
        }
    }

    private func write(_ insert: @Sendable ([AuditAppend]) async throws(StoreError) -> [Int64]) async {
        while true {
            let batch: [Waiting] = state.withLock { state in
                let batch = Array(state.queue.prefix(Self.batchLimit))
                state.queue.removeFirst(batch.count)
                if batch.isEmpty { state.writing = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                let sequences = try await insert(batch.map(\.event))
                for (waiting, sequence) in zip(batch, sequences) { waiting.continuation.resume(returning: sequence) }
            } catch {
                guard batch.count > 1, error.code != .unavailable else {
                    for waiting in batch { waiting.continuation.resume(throwing: error) }
                    continue
                }
                // One event's failure must not fail the others: each is tried again on its own.
                for waiting in batch {
                    do {
                        let sequence = try await insert([waiting.event])
                        waiting.continuation.resume(returning: sequence[0])
                    } catch {
                        waiting.continuation.resume(throwing: error)
                    }
                }
            }
        }
    }
}
