import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyTesting
import PostgresNIO
import PostgresTestSupport
import Testing

/// A store whose pool's only connection is taken, and what becomes of the operations that wait for it.
extension PostgresFailureTests {
    /// Runs `body` with a store of one pooled connection (`pool_timeout` `timeout` seconds) held by an insert that
    /// waits on a row lock of another session; then lets the insert finish, and checks that it did and that the
    /// store serves operations one after another again, none waiting for a turn that an operation giving up kept.
    func withSaturatedPool(
        _ purpose: String,
        timeout: Int,
        _ body: (PostgresPasskeyStore, UserRecord) async throws -> Void
    ) async throws {
        try await TestDatabase.withSchema(purpose) { schema in
            let store = try await PostgresPasskeyStore.connect(
                url: schema.url.replacing("pool_size=10", with: "pool_size=1").replacing(
                    "pool_timeout=60",
                    with: "pool_timeout=\(timeout)"
                )
            )
            let user = try await store.createUserIfAbsent(
                UserRecord(id: "user-pool", handle: [1], name: "user-pool", displayName: "d", createdAt: Self.now)
            )
            try await store.createFlow(
                FlowRecord.fixture(
                    id: "flow-pool",
                    status: .verifying,
                    userID: user.id,
                    clientTokenHash: [1],
                    expiresAt: Self.now + 60
                )
            )

            // Another session holds the user's row lock, so the insert waits on it with the pool's only connection.
            let blocker = try await TestDatabase.connect(id: 2)
            try await blocker.query("BEGIN", logger: blocker.logger)
            try await blocker.query(
                PostgresQuery(unsafeSQL: #"SELECT 1 FROM "\#(schema.name)".users WHERE id = 'user-pool' FOR UPDATE"#),
                logger: blocker.logger
            )
            let insert = Task {
                try await store.insertCredential(
                    CredentialRecordRow(
                        id: [9],
                        userID: user.id,
                        publicKey: [],
                        algorithm: -7,
                        signCount: 0,
                        aaguid: "",
                        attestationFormat: "none",
                        attestationType: "none",
                        attestationTrusted: false,
                        transports: [],
                        backupEligible: false,
                        backupState: false,
                        userVerified: true,
                        name: "Key",
                        nameKey: "key",
                        status: .active,
                        createdAt: Self.now
                    ),
                    maximumActive: 5,
                    flowID: "flow-pool",
                    flowUpdate: FlowUpdate(),
                    at: Self.now
                )
            }
            // Once the insert waits on the row lock, the pool's only connection is taken (a minute at least for a
            // loaded machine to get it there).
            var waiting = 0
            for _ in 0..<6000 where waiting == 0 {
                let rows = try await TestDatabase.execute(
                    "SELECT count(*)::int FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
                )
                waiting = try rows.first?.decode(Int.self) ?? 0
                if waiting == 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            try #require(waiting > 0, "the insert never waited on the row lock")

            try await body(store, user)

            try await blocker.query("ROLLBACK", logger: blocker.logger)
            try await blocker.close()
            try await insert.value
            for _ in 0..<3 { #expect(try await store.credential(id: [9])?.name == "Key") }
            await store.shutdown()
        }
    }

    @Test("an operation cancelled while it waits for a pooled connection is .unavailable, and keeps no turn")
    func cancelledWhileWaiting() async throws {
        try await withSaturatedPool("pool_cancel", timeout: 60) { store, user in
            let waiting = Task { try await store.user(id: user.id) }
            // Most likely queued by then; cancelled before it queued, it gives up the same way.
            try await Task.sleep(for: .milliseconds(100))
            waiting.cancel()
            let error = await #expect(throws: StoreError.self) { _ = try await waiting.value }
            #expect(error?.code == .unavailable)
            #expect(error?.reason.contains("cancelled") == true, "\(String(describing: error))")
        }
    }
}
