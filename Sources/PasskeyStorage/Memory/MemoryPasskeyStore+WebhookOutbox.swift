public import Foundation

extension MemoryPasskeyStore: WebhookOutboxStore {
    /// Refuses messages that are in the outbox already (a message goes to each endpoint once), as the databases'
    /// unique keys do, before the append writes anything.
    func checkNewWebhooks(_ messages: [WebhookMessage]) throws(StoreError) {
        var keys = Set(webhookDeliveries.map { [$0.message.id, $0.message.endpoint] })
        for message in messages where !keys.insert([message.id, message.endpoint]).inserted {
            throw StoreError(.duplicate, "The message \(message.id) is in the outbox for \(message.endpoint) already.")
        }
    }

    /// Writes the audit append's messages to the outbox (called in the append, so in its one step of the actor).
    func queueWebhooks(_ messages: [WebhookMessage]) {
        for message in messages {
            webhookDeliveries.append(
                WebhookDelivery(
                    id: (webhookDeliveries.last?.id ?? 0) + 1,
                    message: message,
                    status: .pending,
                    attempts: 0,
                    nextAttemptAt: message.createdAt
                )
            )
        }
    }

    public func claimWebhookDeliveries(
        at time: Date,
        leaseUntil: Date,
        limit: Int,
        excluding resting: [String]
    ) -> [WebhookDelivery] {
        let due = webhookDeliveries.indices
            .filter {
                webhookDeliveries[$0].status == .pending && webhookDeliveries[$0].nextAttemptAt ?? time <= time
                    && !resting.contains(webhookDeliveries[$0].message.endpoint)
            }
            .sorted {
                (webhookDeliveries[$0].nextAttemptAt ?? time, $0) < (webhookDeliveries[$1].nextAttemptAt ?? time, $1)
            }
            .prefix(max(0, limit))
        return due.sorted().map { index in
            webhookDeliveries[index].attempts += 1
            webhookDeliveries[index].nextAttemptAt = leaseUntil
            return webhookDeliveries[index]
        }
    }

    @discardableResult
    public func recordWebhookAttempt(_ attempt: WebhookAttempt) -> Bool {
        guard let index = webhookDeliveries.firstIndex(where: { $0.id == attempt.deliveryID }),
            webhookDeliveries[index].status == .pending, webhookDeliveries[index].attempts == attempt.attempt
        else { return false }
        webhookDeliveries[index].status = attempt.status
        webhookDeliveries[index].nextAttemptAt = attempt.nextAttemptAt
        webhookDeliveries[index].lastAttemptAt = attempt.at
        webhookDeliveries[index].lastAnswer = attempt.answer
        webhookDeliveries[index].lastError = attempt.error
        return true
    }

    public func webhookDeliveries(endpoint: String, before: Int64?, limit: Int) -> [WebhookDelivery] {
        let before = before ?? .max
        return Array(
            webhookDeliveries.reversed().lazy.filter { $0.message.endpoint == endpoint && $0.id < before }
                .prefix(max(0, limit))
        )
    }

    public func resendWebhookDelivery(id: Int64, at time: Date) -> WebhookDelivery? {
        guard let index = webhookDeliveries.firstIndex(where: { $0.id == id }),
            webhookDeliveries[index].status != .pending
        else { return nil }
        webhookDeliveries[index].status = .pending
        webhookDeliveries[index].nextAttemptAt = time
        return webhookDeliveries[index]
    }

    public func purgeWebhookDeliveries(finishedBefore time: Date, limit: Int) -> Int {
        let purged = Set(
            webhookDeliveries.lazy.filter { $0.status != .pending && $0.message.createdAt < time }.prefix(max(0, limit))
                .map(\.id)
        )
        webhookDeliveries.removeAll { purged.contains($0.id) }
        return purged.count
    }
}
