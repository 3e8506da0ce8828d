public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: WebhookOutboxStore {
    public func claimWebhookDeliveries(
        at time: Date,
        leaseUntil: Date,
        limit: Int,
        excluding resting: [String]
    ) async throws(StoreError) -> [WebhookDelivery] {
        guard limit > 0 else { return [] }
        // The rows another server is claiming are locked, and skipped rather than waited for; a row that server
        // claimed and committed meanwhile is read again when it is locked, and is no longer due. Each due row so
        // goes to exactly one of the servers claiming at once.
        var deliveries: [WebhookDelivery] = []
        for row in try await rows(
            """
            UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = \(leaseUntil)
            WHERE id IN (
                SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= \(time)
                    AND NOT (endpoint = ANY(\(resting.sorted())))
                ORDER BY next_attempt_at, id
                LIMIT \(Int64(limit))
                FOR UPDATE SKIP LOCKED
            )
            RETURNING \(unescaped: Columns.list(Columns.webhookDelivery))
            """,
            doing: "claim webhook deliveries"
        ) {
            deliveries.append(try WebhookDelivery(row))
        }
        return deliveries.sorted { $0.id < $1.id }
    }

    @discardableResult
    public func recordWebhookAttempt(_ attempt: WebhookAttempt) async throws(StoreError) -> Bool {
        let answer = attempt.answer.map { Int32(clamping: $0) }
        return
            !(try await rows(
                """
                UPDATE webhook_deliveries SET status = \(attempt.status.rawValue), next_attempt_at = \(attempt.nextAttemptAt),
                    last_attempt_at = \(attempt.at), last_answer = \(answer), last_error = \(attempt.error)
                WHERE id = \(attempt.deliveryID) AND attempts = \(Int32(clamping: attempt.attempt)) AND status = 'pending'
                RETURNING id
                """,
                doing: "record a webhook attempt"
            ).isEmpty)
    }

    public func webhookDeliveries(
        endpoint: String,
        before: Int64?,
        limit: Int
    ) async throws(StoreError) -> [WebhookDelivery] {
        var deliveries: [WebhookDelivery] = []
        for row in try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.webhookDelivery)) FROM webhook_deliveries
            WHERE endpoint = \(endpoint) AND id < \(before ?? .max)
            ORDER BY id DESC
            LIMIT \(Int64(max(0, limit)))
            """,
            doing: "read webhook deliveries"
        ) {
            deliveries.append(try WebhookDelivery(row))
        }
        return deliveries
    }

    public func resendWebhookDelivery(id: Int64, at time: Date) async throws(StoreError) -> WebhookDelivery? {
        try await rows(
            """
            UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = \(time)
            WHERE id = \(id) AND status <> 'pending'
            RETURNING \(unescaped: Columns.list(Columns.webhookDelivery))
            """,
            doing: "resend a webhook delivery"
        ).first.map { row throws(StoreError) in try WebhookDelivery(row) }
    }

    public func purgeWebhookDeliveries(finishedBefore time: Date, limit: Int) async throws(StoreError) -> Int {
        try await rows(
            """
            DELETE FROM webhook_deliveries WHERE id IN (
                SELECT id FROM webhook_deliveries WHERE created_at < \(time) AND status <> 'pending'
                ORDER BY created_at
                LIMIT \(Int64(max(0, limit)))
                FOR UPDATE SKIP LOCKED
            )
            RETURNING id
            """,
            doing: "purge webhook deliveries"
        ).count
    }
}

extension Columns {
    static let webhookDelivery = [
        "id", "message_id", "endpoint", "event_type", "payload", "created_at", "status", "attempts", "next_attempt_at",
        "last_attempt_at", "last_answer", "last_error",
    ]
}

extension WebhookDelivery {
    init(_ row: PostgresRow) throws(StoreError) {
        let read = RowReader(row, record: "webhook delivery")
        let statusText: String = try read("status")
        guard let status = Status(rawValue: statusText) else {
            throw read.corrupt("status", "is '\(statusText)', not a delivery status")
        }
        self.init(
            id: try read("id"),
            message: WebhookMessage(
                id: try read("message_id"),
                endpoint: try read("endpoint"),
                eventType: try read("event_type"),
                payload: try read("payload"),
                createdAt: try read("created_at")
            ),
            status: status,
            attempts: Int(try read("attempts", as: Int32.self)),
            nextAttemptAt: try read("next_attempt_at"),
            lastAttemptAt: try read("last_attempt_at"),
            lastAnswer: try read("last_answer", as: Int32?.self).map(Int.init),
            lastError: try read("last_error")
        )
    }
}
