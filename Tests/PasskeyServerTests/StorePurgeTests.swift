import Foundation
import Hummingbird
import PasskeyStorage
import PasskeyTesting
import Testing

@testable import PasskeyServer

/// The background purge: what is over leaves the database an hour after it ends, what is not stays.
struct StorePurgeTests {
    @Test("a round deletes sign-ups that never completed and flows that are over, and keeps the rest")
    func abandonedSignUps() async throws {
        let server = try TestServer()
        let store = server.service.context.store
        let purge = StorePurge(service: server.service)
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let abandoned = try await api.createRegistration(NewRegistration(userId: "bob"))
            _ = try await api.startSignIn(userID: "alice")
            #expect(await purge.round() == PurgeReport(), "nothing is over yet")
            #expect(try await store.user(id: "bob") != nil)

            // Until an hour after the attempts expire, they are kept; the sign-in session expired sooner.
            server.clock.advance(by: Double(server.configuration.expiries.registrationAttempt) + StorePurge.grace - 1)
            #expect(await purge.round() == PurgeReport(flows: 1))
            server.clock.advance(by: 2)
            let live = try await api.createRegistration(NewRegistration(userId: "carol"))
            #expect(await purge.round() == PurgeReport(flows: 2, users: 1))

            #expect(try await store.user(id: "bob") == nil, "a sign-up that never completed leaves no user behind")
            #expect(try await store.flow(id: abandoned.registrationAttemptId) == nil)
            #expect(try await store.user(id: "alice") != nil, "a user with a passkey is kept")
            #expect(try await api.credentials(of: "alice").count == 1)
            #expect(try await store.user(id: "carol") != nil, "a user mid-registration is kept")
            #expect(try await store.flow(id: live.registrationAttemptId) != nil)
            #expect(server.logs.all.contains { $0.contains("Purged what is over.") && $0.contains("users=1") })
            // The name is free again, and a new sign-up works.
            _ = try await api.createRegistration(NewRegistration(userId: "bob"))
        }
    }

    @Test("a round repeats while a batch comes back full, at most batchesPerRound times")
    func batches() async throws {
        let server = try TestServer { $0.retention.purgeBatch = 1 }
        let purge = StorePurge(service: server.service)
        let attempts = StorePurge.batchesPerRound + 2
        try await server.withAPI { api in
            for index in 0..<attempts {
                _ = try await api.createRegistration(NewRegistration(userId: "user-\(index)"))
            }
        }
        server.clock.advance(by: 86_400)
        #expect(await purge.round() == PurgeReport(flows: 10, users: 10))
        #expect(await purge.round() == PurgeReport(flows: 2, users: 2))
        #expect(await purge.round() == PurgeReport())
    }

    @Test(
        "the audit log is kept retention.auditDays, or forever when it is 0",
        arguments: [(days: 1, deleted: true), (days: 0, deleted: false)]
    )
    func auditRetention(days: Int, deleted: Bool) async throws {
        let server = try TestServer { $0.retention.auditDays = days }
        let purge = StorePurge(service: server.service)
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
        }
        let store = server.service.context.store
        let recorded = try await store.auditEvents(after: 0, limit: 100, userID: nil).count
        #expect(recorded > 0)
        // Audit events go up to a checkpoint: the application signed the head when withAPI stopped it.
        let head = try await store.auditChainHead()
        #expect(try await store.auditCheckpoints(after: 0, limit: 10).last?.sequence == head?.sequence)
        server.clock.advance(by: 86_399)
        #expect(await purge.round().auditEvents == 0, "a day has not passed")
        server.clock.advance(by: 3650 * 86_400)
        #expect(await purge.round().auditEvents == (deleted ? recorded : 0))
        let left = try await store.auditEvents(after: 0, limit: 100, userID: nil).count
        #expect(left == (deleted ? 0 : recorded))
        #expect(try await store.user(id: "alice") != nil, "the audit retention deletes no user")
    }

    @Test("a store error is logged, and the round ends without throwing")
    func storeFailure() async throws {
        let store = FailingStore()
        let server = try TestServer(store: store)
        store.fail(with: StoreError(.unavailable, "database is locked"))
        #expect(await StorePurge(service: server.service).round() == PurgeReport())
        #expect(server.logs.all.contains { $0.contains("purge of what is over failed") && $0.contains("locked") })
    }

    @Test("the application runs the purge beside the HTTP server")
    func runsWithTheApplication() throws {
        let server = try TestServer()
        let application = PasskeyApplication.build(service: server.service, logger: server.logs.logger("test"))
        #expect(application.services.contains { $0 is StorePurge })
    }
}
