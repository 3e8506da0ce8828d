import Foundation
import PasskeyStorage

// Claims take every due delivery of the store, so these checks need a store of their own each.
extension StoreConformance {
    static let webhookOutbox: [StoreConformanceCheck] = [
        StoreConformanceCheck("messages are written with their audit event, pending and due at once") { store in
            let messages = [WebhookFixture.message(endpoint: "a"), WebhookFixture.message(endpoint: "b")]
            try await WebhookFixture.append(messages, to: store)
            try require(
                try await store.claimWebhookDeliveries(at: Fixture.now - 1, leaseUntil: Fixture.now, limit: 10).isEmpty,
                "nothing is due before the event"
            )
            let lease = Fixture.now + 60
            let claimed = try await store.claimWebhookDeliveries(at: Fixture.now, leaseUntil: lease, limit: 10)
            try require(claimed.map(\.message) == messages, "both messages are claimed, in order: \(claimed)")
            try require(
                claimed.allSatisfy { $0.status == .pending && $0.attempts == 1 && $0.nextAttemptAt == lease },
                "a claim counts the attempt and leases the delivery: \(claimed)"
            )
            try require(
                try await store.claimWebhookDeliveries(at: Fixture.now + 59, leaseUntil: lease, limit: 10).isEmpty,
                "a leased delivery is not claimed again"
            )
            let lapsed = try await store.claimWebhookDeliveries(at: lease, leaseUntil: lease + 60, limit: 1)
            try require(
                lapsed.map(\.id) == [claimed[0].id] && lapsed[0].attempts == 2,
                "a lapsed claim is claimed again, with its attempt counted, up to the limit: \(lapsed)"
            )
        },
        StoreConformanceCheck("a claim leaves the deliveries of resting endpoints due, untouched") { store in
            let messages = [
                WebhookFixture.message(endpoint: "down"), WebhookFixture.message(endpoint: "up"),
                WebhookFixture.message(endpoint: "down"),
            ]
            try await WebhookFixture.append(messages, to: store)
            let lease = Fixture.now + 60
            let claimed = try await store.claimWebhookDeliveries(
                at: Fixture.now,
                leaseUntil: lease,
                limit: 10,
                excluding: ["down", "gone"]
            )
            try require(claimed.map(\.message) == [messages[1]], "only the endpoint that is not resting: \(claimed)")
            let later = try await store.claimWebhookDeliveries(at: Fixture.now, leaseUntil: lease, limit: 10)
            try require(
                later.map(\.message) == [messages[0], messages[2]] && later.allSatisfy { $0.attempts == 1 },
                "the resting endpoint's deliveries are claimed later, with no attempt counted before: \(later)"
            )
        },
        StoreConformanceCheck("an appended event and its messages are written together, or neither") { store in
            let message = WebhookFixture.message(endpoint: "a")
            try await WebhookFixture.append([message], to: store)
            let before = try await store.auditEvents(before: nil, limit: 10, userID: nil)
            try await requireStoreError(.duplicate) {
                try await WebhookFixture.append([WebhookFixture.message(endpoint: "b"), message], to: store)
            }
            let after = try await store.auditEvents(before: nil, limit: 10, userID: nil)
            try require(after == before, "a refused message leaves no audit event: \(after)")
            let claimed = try await store.claimWebhookDeliveries(
                at: Fixture.now,
                leaseUntil: Fixture.now + 1,
                limit: 10
            )
            try require(claimed.map(\.message) == [message], "and none of its messages: \(claimed)")
        },
        StoreConformanceCheck("an attempt is recorded by its own claim only") { store in
            let messages = [WebhookFixture.message(endpoint: "a"), WebhookFixture.message(endpoint: "a")]
            try await WebhookFixture.append(messages, to: store)
            let claimed = try await store.claimWebhookDeliveries(
                at: Fixture.now,
                leaseUntil: Fixture.now + 60,
                limit: 10
            )
            let (first, second) = (claimed[0], claimed[1])
            var stale = WebhookFixture.attempt(first, outcome: .delivered, answer: 204)
            stale.attempt = 0
            try require(!(try await store.recordWebhookAttempt(stale)), "another claim's attempt records nothing")
            let delivered = WebhookFixture.attempt(first, outcome: .delivered, answer: 204)
            try require(try await store.recordWebhookAttempt(delivered), "the claim records its attempt")
            try require(!(try await store.recordWebhookAttempt(delivered)), "once")
            let retry = Fixture.now + 30
            try require(
                try await store.recordWebhookAttempt(
                    WebhookFixture.attempt(second, outcome: .retry(at: retry), answer: nil, error: "timeout")
                ),
                "a retry is recorded"
            )
            let listed = try await store.webhookDeliveries(endpoint: "a", before: nil, limit: 10)
            try require(listed.map(\.id) == [second.id, first.id], "an endpoint's deliveries, newest first: \(listed)")
            try require(
                listed[1].status == .delivered && listed[1].lastAnswer == 204 && listed[1].nextAttemptAt == nil
                    && listed[1].lastAttemptAt == Fixture.now + 1,
                "the delivered one: \(listed[1])"
            )
            try require(
                listed[0].status == .pending && listed[0].lastError == "timeout" && listed[0].lastAnswer == nil
                    && listed[0].nextAttemptAt == retry && listed[0].attempts == 1,
                "the one to retry: \(listed[0])"
            )
            try require(
                try await store.webhookDeliveries(endpoint: "a", before: second.id, limit: 10).map(\.id) == [first.id],
                "paged by id"
            )
            try require(try await store.webhookDeliveries(endpoint: "b", before: nil, limit: 10).isEmpty, "by endpoint")
            try require(
                try await store.claimWebhookDeliveries(at: retry - 1, leaseUntil: retry + 60, limit: 10).isEmpty,
                "a retry is not due before its time"
            )
            let again = try await store.claimWebhookDeliveries(at: retry, leaseUntil: retry + 60, limit: 10)
            try require(again.map(\.id) == [second.id] && again[0].attempts == 2, "and is due then: \(again)")
            try require(
                try await store.recordWebhookAttempt(
                    WebhookFixture.attempt(again[0], outcome: .failed, answer: 500)
                ),
                "a failure is recorded"
            )
            try require(
                try await store.claimWebhookDeliveries(at: retry + 3600, leaseUntil: retry + 4000, limit: 10).isEmpty,
                "a finished delivery is never claimed"
            )
        },
        StoreConformanceCheck("a finished delivery is sent again on request; a pending one is left as it is") { store in
            try await WebhookFixture.append([WebhookFixture.message(endpoint: "a")], to: store)
            let claimed = try await store.claimWebhookDeliveries(
                at: Fixture.now,
                leaseUntil: Fixture.now + 60,
                limit: 1
            )
            try require(
                try await store.resendWebhookDelivery(id: claimed[0].id, at: Fixture.now) == nil,
                "a pending delivery is not resent"
            )
            try require(
                try await store.resendWebhookDelivery(id: 999_999_999, at: Fixture.now) == nil,
                "nor a missing one"
            )
            try await store.recordWebhookAttempt(WebhookFixture.attempt(claimed[0], outcome: .failed, answer: 410))
            let later = Fixture.now + 7200
            let resent = try await store.resendWebhookDelivery(id: claimed[0].id, at: later)
            try require(
                resent?.status == .pending && resent?.nextAttemptAt == later && resent?.attempts == 1
                    && resent?.lastAnswer == 410,
                "a failed delivery is pending again, due at once, its history kept: \(String(describing: resent))"
            )
            let again = try await store.claimWebhookDeliveries(at: later, leaseUntil: later + 60, limit: 1)
            try require(again.map(\.id) == [claimed[0].id] && again[0].attempts == 2, "and claimed again: \(again)")
        },
        StoreConformanceCheck("racing claims get each delivery once") { store in
            let messages = (0..<24).map { _ in WebhookFixture.message(endpoint: "a") }
            try await WebhookFixture.append(messages, to: store)
            let claims = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var ids: [Int64] = []
                        while true {
                            let claimed = try await store.claimWebhookDeliveries(
                                at: Fixture.now,
                                leaseUntil: Fixture.now + 60,
                                limit: 2
                            )
                            if claimed.isEmpty { return ids }
                            ids += claimed.map(\.id)
                        }
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0 += $1 }
            }
            try require(claims.count == 24 && Set(claims).count == 24, "24 claims of 24 deliveries: \(claims.sorted())")
        },
        StoreConformanceCheck("purging deletes finished deliveries written before the time, never pending ones") {
            store in
            let old = [WebhookFixture.message(endpoint: "a"), WebhookFixture.message(endpoint: "a")]
            try await WebhookFixture.append(old, to: store)
            var recent = WebhookFixture.message(endpoint: "a")
            recent.createdAt = Fixture.now + 100
            try await WebhookFixture.append([recent], to: store)
            let claimed = try await store.claimWebhookDeliveries(
                at: Fixture.now + 100,
                leaseUntil: Fixture.now + 160,
                limit: 3
            )
            try await store.recordWebhookAttempt(WebhookFixture.attempt(claimed[0], outcome: .delivered, answer: 200))
            try await store.recordWebhookAttempt(WebhookFixture.attempt(claimed[2], outcome: .delivered, answer: 200))
            try require(
                try await store.purgeWebhookDeliveries(finishedBefore: Fixture.now + 100, limit: 10) == 1,
                "the old delivered one goes; the old pending and the recent one stay"
            )
            let left = try await store.webhookDeliveries(endpoint: "a", before: nil, limit: 10)
            try require(left.map(\.id) == [claimed[2].id, claimed[1].id], "what is left: \(left)")
        },
    ]
}

/// Outbox messages and attempts for the checks.
enum WebhookFixture {
    static func message(endpoint: String) -> WebhookMessage {
        WebhookMessage(
            id: Fixture.id("msg"),
            endpoint: endpoint,
            eventType: "passkey.registered",
            payload: #"{"type":"passkey.registered","timestamp":"2026-01-01T00:00:00Z","data":{}}"#,
            createdAt: Fixture.now
        )
    }

    static func append(_ messages: [WebhookMessage], to store: any PasskeyStore) async throws {
        try await store.appendAuditEvent(
            AuditEvent(time: messages.first?.createdAt ?? Fixture.now, actor: "system", action: "test.webhooks"),
            webhooks: messages
        )
    }

    static func attempt(
        _ delivery: WebhookDelivery,
        outcome: WebhookAttempt.Outcome,
        answer: Int?,
        error: String? = nil
    ) -> WebhookAttempt {
        WebhookAttempt(
            deliveryID: delivery.id,
            attempt: delivery.attempts,
            at: Fixture.now + 1,
            answer: answer,
            error: error,
            outcome: outcome
        )
    }
}
