import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import PostgresTestSupport
import ProcessTestSupport
import Testing

/// Two server instances on one PostgreSQL database, each with its delivery worker, share the outbox: every event is
/// delivered, and none twice.
@Suite("Webhooks: two servers on PostgreSQL", .enabled(if: TestDatabase.isConfigured, TestDatabase.skipped))
struct PostgresWebhookTests {
    static let users = 40

    @Test("the events of two instances are delivered once each, whichever instance's worker claims them")
    func sharedOutbox() async throws {
        let receiver = WebhookReceiver(.accept)
        try await receiver.listen { url in
            try await PostgresScaleOutTests.withTwoInstances(configure: { $0.postWebhooks(to: url) }) { a, b in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<Self.users {
                        let api = index.isMultiple(of: 2) ? a : b
                        group.addTask {
                            _ = try await api.backend(
                                .post,
                                "/v1/registrations",
                                body: NewRegistration(userId: "u\(index)")
                            )
                            #expect(try await api.backend(.delete, "/v1/users/u\(index)").status == .noContent)
                        }
                    }
                    try await group.waitForAll()
                }
                #expect(await eventually(within: 60) { receiver.accepted.count >= Self.users })
                // Give a second delivery of any of them time to arrive, were there one.
                try await Task.sleep(for: .seconds(2))
                let received = receiver.requests
                #expect(received.count == Self.users, "\(received.count) requests for \(Self.users) events")
                #expect(Set(received.map(\.id)).count == Self.users)
                #expect(Set(received.compactMap { $0.data?["userId"] as? String }).count == Self.users)
                let store = a.server.store
                #expect(
                    await eventually {
                        let stored = try? await store.webhookDeliveries(endpoint: "crm", before: nil, limit: 100)
                        return stored?.allSatisfy { $0.status == .delivered } == true
                    }
                )
                let stored = try await store.webhookDeliveries(endpoint: "crm", before: nil, limit: 100)
                #expect(stored.count == Self.users)
                #expect(stored.allSatisfy { $0.attempts == 1 })
            }
        }
    }
}
