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
            return try await auditLog.append(AuditAppend(event: event, webhooks: webhooks)) {
                batch throws(StoreError) in
                try await self.insertAuditEvents(batch)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.unavailable, "Could not append the audit event: \(error).")
        }
    }

    /// An audited write (``PasskeyStore``): `write`, then, when it `tookEffect`, the append through the batched audit
    /// log, after the write has committed.
    func auditedWrite<T>(
        _ append: AuditAppend?,
        if tookEffect: (T) -> Bool = { _ in true },
        _ write: () async throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        let result = try await write()
        if let append, tookEffect(result) { try await appendAuditEvent(append.event, webhooks: append.webhooks) }
        return result
    }

    /// Links the events of `appends` to the chain's head and inserts them with their webhook messages, in one
    /// transaction, and returns the events as stored.
    ///
    /// The transaction first takes the audit log's advisory lock, which every process's appends queue on until the
    /// one holding it commits; only then does it read the head (a statement after the lock sees what the previous
    /// holder committed), link the events to it and insert them in one statement. So the chain has one head across
    /// processes, its sequence numbers have no gaps, and they become visible in order: a reader that has seen event
    /// n has seen every event before it. The events that wait for the lock in this process are written together:
    /// one lock, one commit and one disk sync for all of them rather than one each. The webhook messages are written
    /// to the outbox in the same transaction: the events and their messages commit together, or neither.
    private func insertAuditEvents(_ appends: [AuditAppend]) async throws(StoreError) -> [AuditEvent] {
        let count = appends.count
        return try await transaction(
            doing: count == 1 ? "append the audit event" : "append \(count) audit events"
        ) { connection in
            try await connection.rows(PostgresQuery(unsafeSQL: AuditChainStatements.lock))
            var head = try Self.auditTail(
                try await connection.rows(PostgresQuery(unsafeSQL: AuditChainStatements.head))
            ).appendHead
            var linked: [AuditEvent] = []
            for append in appends {
                let event = AuditChain.link(append.event, after: head)
                head = AuditChainHead(sequence: event.sequence, hash: event.hash ?? AuditChain.genesis)
                linked.append(event)
            }
            let json = String(
                decoding: try JSONEncoder().encode(linked.map(AuditRow.init)),
                as: UTF8.self
            )
            let inserted = try await connection.rows(InsertAuditEvents(json: json))
            guard inserted.count == count else {
                throw StoreError(.corrupt, "Inserting \(count) audit events inserted \(inserted.count).")
            }
            let messages = appends.flatMap(\.webhooks)
            if !messages.isEmpty {
                let outbox = String(decoding: try JSONEncoder().encode(messages.map(OutboxRow.init)), as: UTF8.self)
                try await connection.rows(InsertWebhookMessages(json: outbox))
            }
            return linked
        }
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

/// The statements of the chain that are not prepared: taken once a batch, or read rarely.
enum AuditChainStatements {
    /// The audit log's advisory lock, held until the transaction ends.
    static let lock = """
        SELECT pg_advisory_xact_lock(\(Migrations.lockClass), 'audit_events'::regclass::oid::integer)
        """
    /// The last event, the newest checkpoint and the highest number the column's sequence gave, in one row (nulls
    /// when there are none).
    static let head = """
        SELECT e.sequence AS event_sequence, e.hash AS event_hash, c.sequence AS checkpoint_sequence,
               c.hash AS checkpoint_hash,
               (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM audit_events_sequence_seq) AS counter
        FROM (SELECT 1) AS one
        LEFT JOIN (SELECT sequence, hash FROM audit_events ORDER BY sequence DESC LIMIT 1) AS e ON true
        LEFT JOIN (SELECT sequence, hash FROM audit_checkpoints ORDER BY sequence DESC LIMIT 1) AS c ON true
        """
}

/// Inserts the linked events of a JSON array of ``AuditRow``s, with their own sequence numbers; returns them.
struct InsertAuditEvents: StoreStatement {
    static let sql = """
        INSERT INTO audit_events
            (sequence, time, actor, action, user_id, subject, request_id, details, previous_hash, hash)
        SELECT r.sequence, timestamptz '2000-01-01 00:00:00+00' + r.micros * interval '1 microsecond',
               r.actor, r.action, r.user_id, r.subject, r.request_id, r.details,
               decode(r.previous_hash, 'hex'), decode(r.hash, 'hex')
        FROM jsonb_to_recordset($1::jsonb) AS r(
            sequence bigint, micros bigint, actor text, action text, user_id text, subject text, request_id text,
            details jsonb, previous_hash text, hash text)
        ORDER BY r.sequence
        RETURNING sequence
        """
    let json: String

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(json)
        return binds
    }
}

/// Writes the webhook messages of a JSON array of ``OutboxRow``s to the outbox, pending and due at once.
struct InsertWebhookMessages: StoreStatement {
    static let sql = """
        INSERT INTO webhook_deliveries (message_id, endpoint, event_type, payload, created_at, status, attempts,
            next_attempt_at)
        SELECT w.message_id, w.endpoint, w.event_type, w.payload,
               timestamptz '2000-01-01 00:00:00+00' + w.micros * interval '1 microsecond', 'pending', 0,
               timestamptz '2000-01-01 00:00:00+00' + w.micros * interval '1 microsecond'
        FROM jsonb_to_recordset($1::jsonb) AS w(
            message_id text, endpoint text, event_type text, payload text, micros bigint)
        """
    let json: String

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(json)
        return binds
    }
}

/// A linked audit event as one element of the JSON array that `jsonb_to_recordset` reads. The time is in microseconds
/// since 2000-01-01 (PostgreSQL's epoch), from the whole milliseconds the chain hashes: exactly those.
private struct AuditRow: Encodable {
    let sequence: Int64
    let micros: Int64
    let actor: String
    let action: String
    let user_id: String?
    let subject: String?
    let request_id: String?
    let details: [String: String]
    let previous_hash: String?
    let hash: String?

    /// Microseconds from 1970 to 2000.
    private static let postgresEpoch: Int64 = 946_684_800_000_000

    init(_ event: AuditEvent) {
        sequence = event.sequence
        micros = AuditChain.milliseconds(event.time) * 1000 - Self.postgresEpoch
        actor = event.actor
        action = event.action
        user_id = event.userID
        subject = event.subject
        request_id = event.requestID
        details = event.details
        previous_hash = event.previousHash.map(Self.hex)
        hash = event.hash.map(Self.hex)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]] }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A webhook message as one element of the JSON array the outbox's insert reads. The time is in microseconds since
/// 2000-01-01, truncated, exactly as PostgresNIO binds a `Date` to a `timestamptz`.
private struct OutboxRow: Encodable {
    let message_id: String
    let endpoint: String
    let event_type: String
    let payload: String
    let micros: Int64

    private static let postgresEpoch = Date(timeIntervalSince1970: 946_684_800)

    init(_ message: WebhookMessage) {
        message_id = message.id
        endpoint = message.endpoint
        event_type = message.eventType
        payload = message.payload
        micros = Int64(message.createdAt.timeIntervalSince(Self.postgresEpoch) * 1_000_000)
    }
}

/// The audit events waiting to be written by this store, and whether a writer is at work. The first append that
/// finds no writer becomes it: it writes everything queued, in arrival order, batch after batch, until the queue
/// is empty; appends that arrive meanwhile wait for the batch that takes them.
final class AuditLogWriter: Sendable {
    private struct Waiting {
        let event: AuditAppend
        let continuation: CheckedContinuation<AuditEvent, any Error>
    }

    private struct State {
        var queue: [Waiting] = []
        var writing = false
    }

    /// The most events one statement writes.
    static let batchLimit = 256

    private let state = Mutex(State())

    /// Queues `event` and returns its event as stored once a batch that holds it has committed.
    func append(
        _ event: AuditAppend,
        insert: @escaping @Sendable ([AuditAppend]) async throws(StoreError) -> [AuditEvent]
    ) async throws -> AuditEvent {
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

    private func write(_ insert: @Sendable ([AuditAppend]) async throws(StoreError) -> [AuditEvent]) async {
        while true {
            let batch: [Waiting] = state.withLock { state in
                let batch = Array(state.queue.prefix(Self.batchLimit))
                state.queue.removeFirst(batch.count)
                if batch.isEmpty { state.writing = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                let stored = try await insert(batch.map(\.event))
                for (waiting, event) in zip(batch, stored) { waiting.continuation.resume(returning: event) }
            } catch {
                guard batch.count > 1, error.code != .unavailable else {
                    for waiting in batch { waiting.continuation.resume(throwing: error) }
                    continue
                }
                // One event's failure must not fail the others: each is tried again on its own.
                for waiting in batch {
                    do {
                        let stored = try await insert([waiting.event])
                        waiting.continuation.resume(returning: stored[0])
                    } catch {
                        waiting.continuation.resume(throwing: error)
                    }
                }
            }
        }
    }
}

extension PostgresPasskeyStore {
    @discardableResult
    public func appendAuditCheckpoint(_ checkpoint: AuditCheckpoint) async throws(StoreError) -> Bool {
        try await !rows(
            """
            INSERT INTO audit_checkpoints (sequence, hash, time, public_key, signature)
            VALUES (\(checkpoint.sequence), \(checkpoint.hash.bytea), \(checkpoint.time),
                    \(checkpoint.publicKey.bytea), \(checkpoint.signature.bytea))
            ON CONFLICT (sequence) DO NOTHING
            RETURNING sequence
            """,
            doing: "keep the audit checkpoint"
        ).isEmpty
    }

    public func auditCheckpoints(after: Int64, limit: Int) async throws(StoreError) -> [AuditCheckpoint] {
        var checkpoints: [AuditCheckpoint] = []
        for row in try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.auditCheckpoint)) FROM audit_checkpoints
            WHERE sequence > \(after) ORDER BY sequence LIMIT \(Int64(max(0, limit)))
            """,
            doing: "read the audit checkpoints"
        ) {
            checkpoints.append(try AuditCheckpoint(row))
        }
        return checkpoints
    }

    public func auditChainHead() async throws(StoreError) -> AuditChainHead? {
        let rows = try await rows(doing: "read the audit chain's head") { connection in
            try await connection.rows(PostgresQuery(unsafeSQL: AuditChainStatements.head))
        }
        return try Self.auditTail(rows).signableHead
    }

    /// What the head statement (``AuditChainStatements/head``) read.
    static func auditTail(_ rows: [PostgresRow]) throws(StoreError) -> AuditChainTail {
        guard let row = rows.first else { return AuditChainTail() }
        let read = RowReader(row, record: "audit chain head")
        let checkpointSequence: Int64? = try read("checkpoint_sequence")
        let checkpointHash = try read.optionalBytes("checkpoint_hash")
        let counter: Int64? = try read("counter")
        return AuditChainTail(
            lastSequence: try read("event_sequence"),
            lastHash: try read.optionalBytes("event_hash"),
            newestCheckpoint: checkpointSequence.map { AuditChainHead(sequence: $0, hash: checkpointHash ?? []) },
            counter: counter ?? 0
        )
    }
}
