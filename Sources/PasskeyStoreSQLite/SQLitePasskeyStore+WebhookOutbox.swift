public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: WebhookOutboxStore {
    /// Writes an audit append's messages to the outbox, in the append's session (so in its transaction).
    static func insertWebhookMessages(_ messages: [WebhookMessage], into db: Database) throws {
        for message in messages {
            try db.execute(
                """
                INSERT INTO webhook_deliveries (message_id, endpoint, event_type, payload, created_at, status, attempts,
                    next_attempt_at)
                VALUES (?1, ?2, ?3, ?4, ?5, 'pending', 0, ?5)
                """,
                [
                    Bind.text(message.id), Bind.text(message.endpoint), Bind.text(message.eventType),
                    Bind.text(message.payload), Bind.date(message.createdAt),
                ]
            )
        }
    }

    public func claimWebhookDeliveries(
        at time: Date,
        leaseUntil: Date,
        limit: Int,
        excluding resting: [String]
    ) async throws(StoreError) -> [WebhookDelivery] {
        guard limit > 0 else { return [] }
        // The session holds the write lock, which every process on the file takes in turn: one claim at a time.
        return try await connection.session { db in
            try db.rows(
                """
                UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = ?2
                WHERE id IN (
                    SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ?1
                        AND endpoint NOT IN (SELECT value FROM json_each(?4))
                    ORDER BY next_attempt_at, id LIMIT ?3
                )
                RETURNING \(WebhookRows.columns)
                """,
                [Bind.date(time), Bind.date(leaseUntil), Bind.integer(limit), try Bind.json(resting.sorted())]
            ).map(WebhookRows.decode).sorted { $0.id < $1.id }
        }
    }

    @discardableResult
    public func recordWebhookAttempt(_ attempt: WebhookAttempt) async throws(StoreError) -> Bool {
        try await connection.session { db in
            !(try db.rows(
                """
                UPDATE webhook_deliveries SET status = ?3, next_attempt_at = ?4, last_attempt_at = ?5, last_answer = ?6,
                    last_error = ?7
                WHERE id = ?1 AND attempts = ?2 AND status = 'pending'
                RETURNING id
                """,
                [
                    Bind.integer(attempt.deliveryID), Bind.integer(attempt.attempt),
                    Bind.text(attempt.status.rawValue), Bind.date(attempt.nextAttemptAt), Bind.date(attempt.at),
                    attempt.answer.map { Bind.integer($0) } ?? .null, Bind.text(attempt.error),
                ]
            ).isEmpty)
        }
    }

    public func webhookDeliveries(
        endpoint: String,
        before: Int64?,
        limit: Int
    ) async throws(StoreError) -> [WebhookDelivery] {
        guard limit > 0 else { return [] }
        return try await connection.session { db in
            try db.rows(
                """
                SELECT \(WebhookRows.columns) FROM webhook_deliveries
                WHERE endpoint = ?1 AND id < ?2 ORDER BY id DESC LIMIT ?3
                """,
                [Bind.text(endpoint), Bind.integer(before ?? .max), Bind.integer(limit)]
            ).map(WebhookRows.decode)
        }
    }

    public func resendWebhookDelivery(id: Int64, at time: Date) async throws(StoreError) -> WebhookDelivery? {
        try await connection.session { db in
            try db.rows(
                """
                UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?2
                WHERE id = ?1 AND status <> 'pending'
                RETURNING \(WebhookRows.columns)
                """,
                [Bind.integer(id), Bind.date(time)]
            ).first.map(WebhookRows.decode)
        }
    }

    public func purgeWebhookDeliveries(finishedBefore time: Date, limit: Int) async throws(StoreError) -> Int {
        guard limit > 0 else { return 0 }
        return try await connection.session { db in
            try db.rows(
                """
                DELETE FROM webhook_deliveries WHERE id IN (
                    SELECT id FROM webhook_deliveries WHERE created_at < ?1 AND status <> 'pending'
                    ORDER BY created_at LIMIT ?2
                )
                RETURNING id
                """,
                [Bind.date(time), Bind.integer(limit)]
            ).count
        }
    }
}

enum WebhookRows {
    static let columns = """
        id, message_id, endpoint, event_type, payload, created_at, status, attempts, next_attempt_at, last_attempt_at, \
        last_answer, last_error
        """

    static func decode(_ row: Row) throws(StoreError) -> WebhookDelivery {
        let reader = RowReader(row: row, table: "webhook_deliveries")
        let statusText = try reader.text("status")
        guard let status = WebhookDelivery.Status(rawValue: statusText) else {
            throw StoreError(.corrupt, "A stored webhook_deliveries row has the unknown status '\(statusText)'.")
        }
        let lastAnswer: Int? =
            if case .null = row.column("last_answer") { nil } else { try reader.int("last_answer") }
        return WebhookDelivery(
            id: try reader.int64("id"),
            message: WebhookMessage(
                id: try reader.text("message_id"),
                endpoint: try reader.text("endpoint"),
                eventType: try reader.text("event_type"),
                payload: try reader.text("payload"),
                createdAt: try reader.date("created_at")
            ),
            status: status,
            attempts: try reader.int("attempts"),
            nextAttemptAt: try reader.optionalDate("next_attempt_at"),
            lastAttemptAt: try reader.optionalDate("last_attempt_at"),
            lastAnswer: lastAnswer,
            lastError: try reader.optionalText("last_error")
        )
    }
}
