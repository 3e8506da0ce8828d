import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: AuditStore {
    /// Links the event to the chain's head and inserts it in one operation of the store's connection: its writes
    /// are serialised (and across processes, `BEGIN IMMEDIATE` holds the file's write lock), so the head read here
    /// is the last one.
    @discardableResult
    public func appendAuditEvent(
        _ event: AuditEvent,
        webhooks: [WebhookMessage]
    ) async throws(StoreError) -> AuditEvent {
        let append = AuditAppend(event: event, webhooks: webhooks)
        let details = try Bind.json(event.details)
        return try await connection.session { db in try Self.append(append, details: details, db) }
    }

    /// An audited write (``PasskeyStore``): `write` and, when it `tookEffect`, the append, in one operation of the
    /// store's connection, so one transaction.
    func auditedWrite<T: Sendable>(
        _ append: AuditAppend?,
        if tookEffect: @escaping @Sendable (T) -> Bool = { _ in true },
        _ write: @escaping @Sendable (Database) throws -> T
    ) async throws(StoreError) -> T {
        guard let append else { return try await connection.session(write) }
        let details = try Bind.json(append.event.details)
        return try await connection.session { db in
            let result = try write(db)
            if tookEffect(result) { try Self.append(append, details: details, db) }
            return result
        }
    }

    /// Links the event to the chain's head, inserts it with its details (bound already) and writes its webhook
    /// messages to the outbox.
    @discardableResult
    private static func append(_ append: AuditAppend, details: SQLValue, _ db: Database) throws -> AuditEvent {
        let event = AuditChain.link(append.event, after: try auditHead(db, signable: false))
        try db.execute(
            """
            INSERT INTO audit_events
                (sequence, time, actor, action, user_id, subject, request_id, details, previous_hash, hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                Bind.integer(event.sequence), Bind.date(event.time), Bind.text(event.actor),
                Bind.text(event.action), Bind.text(event.userID), Bind.text(event.subject),
                Bind.text(event.requestID), details, Bind.bytes(event.previousHash), Bind.bytes(event.hash),
            ]
        )
        try insertWebhookMessages(append.webhooks, into: db)
        return event
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

    public func auditChainHead() async throws(StoreError) -> AuditChainHead? {
        try await connection.session { db in try Self.auditHead(db, signable: true) }
    }

    @discardableResult
    public func appendAuditCheckpoint(_ checkpoint: AuditCheckpoint) async throws(StoreError) -> Bool {
        try await connection.session { db in
            try !db.rows(
                """
                INSERT INTO audit_checkpoints (sequence, hash, time, public_key, signature) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (sequence) DO NOTHING RETURNING sequence
                """,
                [
                    Bind.integer(checkpoint.sequence), Bind.bytes(checkpoint.hash), Bind.date(checkpoint.time),
                    Bind.bytes(checkpoint.publicKey), Bind.bytes(checkpoint.signature),
                ]
            ).isEmpty
        }
    }

    public func auditCheckpoints(after: Int64, limit: Int) async throws(StoreError) -> [AuditCheckpoint] {
        guard limit > 0 else { return [] }
        return try await connection.session { db in
            try db.rows(
                """
                SELECT sequence, hash, time, public_key, signature FROM audit_checkpoints
                WHERE sequence > ? ORDER BY sequence LIMIT ?
                """,
                [Bind.integer(after), Bind.integer(limit)]
            ).map(AuditRows.decodeCheckpoint)
        }
    }

    /// The chain's head: for an append (``AuditChainTail/appendHead``) or for a checkpoint
    /// (``AuditChainTail/signableHead``).
    private static func auditHead(_ db: Database, signable: Bool) throws -> AuditChainHead? {
        var tail = AuditChainTail()
        if let row = try db.rows("SELECT sequence, hash FROM audit_events ORDER BY sequence DESC LIMIT 1").first {
            let reader = RowReader(row: row, table: "audit_events")
            tail.lastSequence = try reader.int64("sequence")
            tail.lastHash = try reader.optionalBytes("hash")
        }
        if let row = try db.rows("SELECT sequence, hash FROM audit_checkpoints ORDER BY sequence DESC LIMIT 1").first {
            let reader = RowReader(row: row, table: "audit_checkpoints")
            tail.newestCheckpoint = AuditChainHead(
                sequence: try reader.int64("sequence"),
                hash: try reader.bytes("hash")
            )
        }
        if let row = try db.rows("SELECT seq FROM sqlite_sequence WHERE name = 'audit_events'").first {
            tail.counter = try RowReader(row: row, table: "sqlite_sequence").int64("seq")
        }
        return signable ? tail.signableHead : tail.appendHead
    }
}
