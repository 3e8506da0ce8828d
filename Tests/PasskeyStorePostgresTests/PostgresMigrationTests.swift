import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyTesting
import PostgresNIO
import PostgresTestSupport
import Testing

@Suite("PostgreSQL store migrations", .enabled(if: TestDatabase.isConfigured, TestDatabase.skipped))
struct PostgresMigrationTests {
    let latest = PostgresPasskeyStore.schemaVersion
    /// Every version this code applies, in order: 7 and 8 are not here (a version may be missing).

    func versions(in schema: TestSchema) async throws -> [Int] {
        try await schema.execute("SELECT version FROM schema_migrations ORDER BY version").map {
            try $0.decode(Int.self)
        }
    }

    func tables(in schema: TestSchema) async throws -> Set<String> {
        let rows = try await TestDatabase.execute(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = '\(schema.name)'"
        )
        return Set(try rows.map { try $0.decode(String.self) })
    }

    func columns(of table: String, in schema: TestSchema) async throws -> Set<String> {
        let rows = try await TestDatabase.execute(
            """
            SELECT column_name::text FROM information_schema.columns
            WHERE table_schema = '\(schema.name)' AND table_name = '\(table)'
            """
        )
        return Set(try rows.map { try $0.decode(String.self) })
    }

    /// Takes the cross-platform sessions (version 7) out of the schema.
    func dropCrossPlatformSessions(in schema: TestSchema) async throws {
        try await schema.execute("DROP TABLE cross_platform_sessions")
        try await schema.execute("DELETE FROM schema_migrations WHERE version = 7")
    }

    /// Takes the unique user names (version 9) out of the schema.
    func dropUniqueUserNames(in schema: TestSchema) async throws {
        try await schema.execute("DROP INDEX users_name_key")
        try await schema.execute("DELETE FROM schema_migrations WHERE version = 9")
    }

    /// Takes the users' index by name in byte order (version 17) out of the schema.
    func dropUsersByName(in schema: TestSchema) async throws {
        try await schema.execute("DROP INDEX users_name_bytewise")
        try await schema.execute("DELETE FROM schema_migrations WHERE version = 17")
    }

    /// Takes the token sessions (version 16) and the change after it out of the schema.
    func dropTokenSessions(in schema: TestSchema) async throws {
        try await dropUsersByName(in: schema)
        try await schema.execute("DROP TABLE refresh_tokens")
        try await schema.execute("DROP TABLE refresh_token_families")
        try await schema.execute("DROP TABLE session_signing_keys")
        try await schema.execute("DELETE FROM schema_migrations WHERE version = 16")
    }

    /// Takes the webhook outbox (version 15) and the token sessions after it out of the schema.
    func dropWebhookOutbox(in schema: TestSchema) async throws {
        try await dropTokenSessions(in: schema)
        try await schema.execute("DROP TABLE webhook_deliveries")
        try await schema.execute("DELETE FROM schema_migrations WHERE version = 15")
    }

    /// Takes the audit hash chain (version 14) and the webhook outbox after it out of the schema: its events stay,
    /// without their hashes.
    func dropAuditChain(in schema: TestSchema) async throws {
        try await dropWebhookOutbox(in: schema)
        try await schema.execute("DROP TABLE audit_checkpoints")
        try await schema.execute("ALTER TABLE audit_events DROP COLUMN previous_hash, DROP COLUMN hash")
        try await schema.execute("DELETE FROM schema_migrations WHERE version = 14")
    }

    /// Takes the purged registrations (version 12), the idempotency keys (version 13) and everything after them out
    /// of the schema.
    func dropRegistrationLifecycle(in schema: TestSchema) async throws {
        try await dropAuditChain(in: schema)
        try await schema.execute("DROP TABLE idempotency_keys")
        try await schema.execute("DROP TABLE purged_registrations")
        try await schema.execute("DELETE FROM schema_migrations WHERE version IN (12, 13)")
    }

    /// Takes the console passkeys (version 11) and everything after it out of the schema.
    func dropConsolePasskeys(in schema: TestSchema) async throws {
        try await dropRegistrationLifecycle(in: schema)
        try await schema.execute("DROP INDEX web_sessions_break_glass")
        try await schema.execute("ALTER TABLE credentials DROP COLUMN console_enrolled")
        try await schema.execute("DELETE FROM schema_migrations WHERE version = 11")
    }

    /// Takes the schema back to version 5, as the release before purging left it.
    func dropPurgeIndexes(in schema: TestSchema) async throws {
        try await dropConsolePasskeys(in: schema)
        try await dropCrossPlatformSessions(in: schema)
        try await dropUniqueUserNames(in: schema)
        try await dropRecoveryAttempts(in: schema)
        try await schema.execute("DROP INDEX audit_events_time")
        try await schema.execute("DROP INDEX workflow_runs_expires_at")
        try await schema.execute("DELETE FROM schema_migrations WHERE version = 6")
    }

    /// Takes the schema back to the release before the recovery attempts (version 8, and version 10, which adds their
    /// starter column).
    func dropRecoveryAttempts(in schema: TestSchema) async throws {
        try await schema.execute("DROP TABLE recovery_attempts")
        try await schema.execute("DELETE FROM schema_migrations WHERE version IN (8, 10)")
    }

    /// Takes the schema back to version 4, as the release before the identity-verification runs left it.
    func dropWorkflowRuns(in schema: TestSchema) async throws {
        try await dropPurgeIndexes(in: schema)
        try await schema.execute("DROP TABLE workflow_runs")
        try await schema.execute("ALTER TABLE credentials DROP COLUMN workflow_run_id")
        try await schema.execute("DELETE FROM schema_migrations WHERE version = 5")
    }

    @Test("a fresh schema is migrated to the latest version")
    func fresh() async throws {
        try await TestDatabase.withSchema("fresh") { schema in
            #expect(try await tables(in: schema).isEmpty)
            let store = try await schema.connect()
            await store.shutdown()
            #expect(try await versions(in: schema) == PostgresPasskeyStore.schemaVersions)
            #expect(
                try await tables(in: schema) == [
                    "schema_migrations", "users", "credentials", "flows", "audit_events", "limit_windows",
                    "web_sessions", "workflow_runs", "cross_platform_sessions", "recovery_attempts",
                    "purged_registrations", "idempotency_keys", "audit_checkpoints", "webhook_deliveries",
                    "session_signing_keys", "refresh_token_families", "refresh_tokens",
                ]
            )
            #expect(try await columns(of: "credentials", in: schema).contains("workflow_run_id"))
            #expect(try await columns(of: "audit_events", in: schema).isSuperset(of: ["previous_hash", "hash"]))
        }
    }

    @Test("a schema of version 14 gets the webhook outbox, and keeps its data")
    func upgradeToWebhookOutbox() async throws {
        try await TestDatabase.withSchema("outbox") { schema in
            let first = try await schema.connect()
            try await first.appendAuditEvent(AuditEvent(time: TestTime.fixed, actor: "system", action: "test.kept"))
            await first.shutdown()
            try await dropWebhookOutbox(in: schema)
            #expect(try await !tables(in: schema).contains("webhook_deliveries"))
            let second = try await schema.connect()
            let message = WebhookMessage(
                id: "msg_upgrade",
                endpoint: "crm",
                eventType: "user.deleted",
                payload: "{}",
                createdAt: TestTime.fixed
            )
            try await second.appendAuditEvent(
                AuditEvent(time: TestTime.fixed, actor: "system", action: "test.outbox"),
                webhooks: [message]
            )
            let delivery = try await second.webhookDeliveries(endpoint: "crm", before: nil, limit: 1).first
            #expect(delivery?.message == message)
            #expect(
                try await second.auditEvents(after: 0, limit: 10, userID: nil).map(\.action) == [
                    "test.kept", "test.outbox",
                ]
            )
            await second.shutdown()
            #expect(try await versions(in: schema) == PostgresPasskeyStore.schemaVersions)
        }
    }

    @Test("a schema of version 15 gets the token sessions, and keeps its users")
    func upgradeToTokenSessions() async throws {
        try await TestDatabase.withSchema("tokens") { schema in
            let first = try await schema.connect()
            let user = try await first.createUserIfAbsent(UserRecord.fixture())
            await first.shutdown()
            try await dropTokenSessions(in: schema)
            #expect(try await !tables(in: schema).contains("refresh_tokens"))
            let second = try await schema.connect()
            let family = RefreshTokenFamily(
                id: "sf_upgrade",
                userID: user.id,
                authTime: TestTime.fixed,
                methods: ["swk", "user"],
                assurance: "passkey",
                createdAt: TestTime.fixed,
                expiresAt: TestTime.fixed + 3600
            )
            let hash = [UInt8](repeating: 9, count: 32)
            try await second.createRefreshTokenFamily(
                family,
                firstToken: RefreshToken(
                    tokenHash: hash,
                    familyID: family.id,
                    createdAt: TestTime.fixed,
                    expiresAt: TestTime.fixed + 600
                )
            )
            #expect(try await second.refreshTokenFamilies(userID: user.id) == [family])
            await second.shutdown()
            #expect(try await versions(in: schema) == PostgresPasskeyStore.schemaVersions)
        }
    }

    @Test("a schema of version 16 gets the users' index by name, and a page of users by name reads it")
    func upgradeToUsersByName() async throws {
        try await TestDatabase.withSchema("users_by_name") { schema in
            let first = try await schema.connect()
            for index in 0..<3 {
                _ = try await first.createUserIfAbsent(
                    UserRecord.fixture(id: "user-\(index)", handle: [UInt8(index)], name: "name-\(2 - index)")
                )
            }
            await first.shutdown()
            try await dropUsersByName(in: schema)
            let second = try await schema.connect()
            #expect(try await versions(in: schema) == PostgresPasskeyStore.schemaVersions)
            let page = try await second.users(matching: nil, after: "name-0", limit: 10, order: .name)
            #expect(page.map(\.user.name) == ["name-1", "name-2"])
            await second.shutdown()
            // The listing's order and cursor, planned without sequential scans: an index scan of the new index.
            let plan = try await TestDatabase.execute(
                #"SET search_path TO "\#(schema.name)""#,
                "SET enable_seqscan = off",
                #"EXPLAIN SELECT id FROM users WHERE name COLLATE "C" > 'name-0' ORDER BY name COLLATE "C" LIMIT 10"#
            ).map { try $0.decode(String.self) }.joined(separator: "\n")
            #expect(plan.contains("users_name_bytewise"), "\(plan)")
        }
    }

    @Test("connecting again applies nothing and keeps the data")
    func rerun() async throws {
        try await TestDatabase.withSchema("rerun") { schema in
            let first = try await schema.connect()
            let user = UserRecord(
                id: "user-rerun",
                handle: Array(repeating: 7, count: 32),
                name: "ada",
                displayName: "Ada",
                createdAt: TestTime.fixed
            )
            _ = try await first.createUserIfAbsent(user)
            await first.shutdown()
            let second = try await schema.connect()
            #expect(try await second.user(id: user.id) == user)
            await second.shutdown()
            #expect(try await versions(in: schema) == PostgresPasskeyStore.schemaVersions)
        }
    }

    @Test("a schema of the release before the limit windows gets the later steps, and keeps its data")
    func upgradeToLimitWindows() async throws {
        try await TestDatabase.withSchema("upgrade") { schema in
            let first = try await schema.connect()
            let user = UserRecord(
                id: "user-upgrade",
                handle: Array(repeating: 9, count: 32),
                name: "ada",
                displayName: "Ada",
                createdAt: TestTime.fixed
            )
            _ = try await first.createUserIfAbsent(user)
            await first.shutdown()
            // Back to version 2, as that release left it.
            try await dropWorkflowRuns(in: schema)
            try await schema.execute("DROP TABLE web_sessions")
            try await schema.execute("DROP TABLE limit_windows")
            try await schema.execute("DELETE FROM schema_migrations WHERE version >= 3")

            let store = try await schema.connect()
            #expect(try await store.user(id: user.id) == user)
            let counted = try await store.countLimitEvent(keyHash: Array(repeating: 1, count: 32), window: 60, at: .now)
            #expect(counted.count == 1)
            await store.shutdown()
            #expect(try await versions(in: schema) == PostgresPasskeyStore.schemaVersions)
            #expect(try await tables(in: schema).contains("limit_windows"))
        }
    }

    @Test("a schema of version 3 gets the web sessions and the later steps, and keeps its data")
    func upgradeToWebSessions() async throws {
        try await TestDatabase.withSchema("sessions") { schema in
            let first = try await schema.connect()
            let now = TestTime.fixed
            let user = UserRecord(
                id: "user-sessions",
                handle: Array(repeating: 5, count: 32),
                name: "ada",
                displayName: "Ada",
                createdAt: now
            )
            let key = Array(repeating: UInt8(2), count: 32)
            _ = try await first.createUserIfAbsent(user)
            _ = try await first.countLimitEvent(keyHash: key, window: 60, at: now)
            await first.shutdown()
            // Back to version 3, as that release left it.
            try await dropWorkflowRuns(in: schema)
            try await schema.execute("DROP TABLE web_sessions")
            try await schema.execute("DELETE FROM schema_migrations WHERE version = 4")
            #expect(try await versions(in: schema) == [1, 2, 3])

            let store = try await schema.connect()
            #expect(try await store.user(id: user.id) == user)
            #expect(try await store.limitWindows(keyHashes: [key], at: now).map(\.count) == [1])
            let session = WebSessionRecord(
                id: "ws_upgrade",
                secretHash: Array(repeating: 3, count: 32),
                kind: .console,
                userID: user.id,
                operatorName: "user:\(user.id)",
                credentialID: nil,
                clientIP: "192.0.2.1",
                createdAt: now,
                expiresAt: now + 3600
            )
            try await store.createWebSession(session)
            #expect(try await store.webSessions(userID: user.id, at: now) == [session])
            await store.shutdown()
            #expect(try await versions(in: schema) == PostgresPasskeyStore.schemaVersions)
        }
    }

    @Test("a schema of version 4 gets the identity-verification runs and the purge indexes, and keeps its data")
    func upgradeToWorkflowRuns() async throws {
        try await TestDatabase.withSchema("workflow_runs") { schema in
            let first = try await schema.connect()
            let now = TestTime.fixed
            let user = UserRecord(
                id: "user-workflow-runs",
                handle: Array(repeating: 6, count: 32),
                name: "ada",
                displayName: "Ada",
                createdAt: now
            )
            let flow = FlowRecord.fixture(
                id: "flow-workflow-runs",
                status: .verifying,
                userID: user.id,
                clientTokenHash: Array(repeating: 4, count: 32)
            )
            let credential = PostgresMultiProcessTests.credential(of: user.id, flowID: flow.id)
            let session = WebSessionRecord(
                id: "ws_workflow_runs",
                secretHash: Array(repeating: 8, count: 32),
                kind: .demo,
                userID: user.id,
                operatorName: nil,
                credentialID: credential.id,
                clientIP: "192.0.2.1",
                createdAt: now,
                expiresAt: now + 3600
            )
            _ = try await first.createUserIfAbsent(user)
            try await first.createFlow(flow)
            try await first.insertCredential(
                credential,
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(),
                at: now
            )
            try await first.createWebSession(session)
            await first.shutdown()
            try await dropWorkflowRuns(in: schema)
            #expect(try await versions(in: schema) == [1, 2, 3, 4])
            #expect(try await columns(of: "credentials", in: schema).contains("workflow_run_id") == false)

            let store = try await schema.connect()
            #expect(try await store.user(id: user.id) == user)
            #expect(try await store.flow(id: flow.id) != nil)
            #expect(try await store.webSessions(userID: user.id, at: now) == [session])
            let stored = try await store.credential(id: credential.id)
            #expect(stored == credential)
            #expect(stored != nil && stored?.workflowRunID == nil)
            let run = WorkflowRunRecord(
                id: "idv_upgrade",
                purpose: .enrollment,
                userID: user.id,
                flowID: flow.id,
                status: .pending,
                createdAt: now,
                updatedAt: now,
                expiresAt: now + 600
            )
            try await store.createWorkflowRun(run)
            #expect(try await store.workflowRun(flowID: flow.id) == run)
            var verified = PostgresMultiProcessTests.credential(of: user.id, name: "Verified", flowID: flow.id)
            verified.workflowRunID = run.id
            try await store.insertCredential(
                verified,
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(),
                at: now
            )
            #expect(try await store.credential(id: verified.id)?.workflowRunID == run.id)
            await store.shutdown()
            #expect(try await versions(in: schema) == PostgresPasskeyStore.schemaVersions)
            #expect(latest == PostgresPasskeyStore.schemaVersions.last)
        }
    }

    @Test("a schema of version 5 gets the purge indexes alone, and purging uses them")
    func upgradeToPurgeIndexes() async throws {
        try await TestDatabase.withSchema("purge") { schema in
            let now = TestTime.fixed
            let first = try await schema.connect()
            let old = try await first.appendAuditEvent(AuditEvent(time: now - 7200, actor: "system", action: "old"))
            let young = try await first.appendAuditEvent(AuditEvent(time: now, actor: "system", action: "young"))
            await first.shutdown()
            try await dropPurgeIndexes(in: schema)
            #expect(try await versions(in: schema) == [1, 2, 3, 4, 5])

            let store = try await schema.connect()
            // Audit events go up to a checkpoint: one signed after the old event, before the retention.
            try await store.appendAuditCheckpoint(
                AuditCheckpoint(
                    sequence: old.sequence,
                    hash: AuditChain.genesis,
                    time: now - 3700,
                    publicKey: [],
                    signature: []
                )
            )
            let report = try await store.purge(before: now, auditBefore: now - 3600, limit: 10)
            #expect(report == PurgeReport(auditEvents: 1))
            let left = try await store.auditEvents(after: old.sequence - 1, limit: 10, userID: nil)
            #expect(left.map(\.sequence) == [young.sequence])
            #expect(left.map(\.hash) == [nil], "an event from before the chain keeps no hash")
            await store.shutdown()
            #expect(try await versions(in: schema) == PostgresPasskeyStore.schemaVersions)
            let indexes = try await TestDatabase.execute(
                "SELECT indexname::text FROM pg_indexes WHERE schemaname = '\(schema.name)'"
            ).map { try $0.decode(String.self) }
            #expect(Set(indexes).isSuperset(of: ["audit_events_time", "workflow_runs_expires_at"]))
        }
    }

    @Test("a schema of version 13 gets the audit hash chain: its events stay, and the chain starts after them")
    func upgradeToAuditChain() async throws {
        try await TestDatabase.withSchema("chain") { schema in
            let first = try await schema.connect()
            await first.shutdown()
            try await dropAuditChain(in: schema)
            for index in 0..<3 {
                try await schema.execute(
                    "INSERT INTO audit_events (time, actor, action) VALUES (now() - interval '\(index) hours', 'system', 'old')"
                )
            }
            let store = try await schema.connect()
            #expect(try await versions(in: schema) == PostgresPasskeyStore.schemaVersions)
            #expect(try await store.auditChainHead() == nil, "events without hashes have no head to sign")
            let event = try await store.appendAuditEvent(
                AuditEvent(time: TestTime.fixed, actor: "system", action: "new")
            )
            #expect(event.sequence == 4 && event.previousHash == AuditChain.genesis)
            let key = try await AuditTampering.signHead(of: store, at: TestTime.fixed + 1)
            let report = try await AuditChainVerification.verify(store, trustedKeys: [key])
            #expect(report.legacyEvents == 3 && report.chainedEvents == 1 && report.startsAtGenesis)
            await store.shutdown()
        }
    }

    @Test("stores starting at once on an empty schema migrate it once, and both start")
    func concurrentStart() async throws {
        try await TestDatabase.withSchema("concurrent") { schema in
            let stores = try await withThrowingTaskGroup(of: PostgresPasskeyStore.self) { group in
                for _ in 0..<4 { group.addTask { try await schema.connect() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(stores.count == 4)
            for store in stores { await store.shutdown() }
            #expect(try await versions(in: schema) == PostgresPasskeyStore.schemaVersions)
        }
    }

    @Test("a schema migrated by newer code is refused with a clear error")
    func futureVersionRefused() async throws {
        try await TestDatabase.withSchema("future") { schema in
            try await schema.connect().shutdown()
            try await schema.execute(
                "INSERT INTO schema_migrations (version, description) VALUES (\(latest + 1), 'from the future')"
            )
            let error = await #expect(throws: StoreError.self) { try await schema.connect() }
            #expect(error?.code == .unavailable)
            #expect(error?.reason.contains("version \(latest + 1)") == true, "\(String(describing: error))")
            #expect(error?.reason.contains("up to \(latest)") == true, "\(String(describing: error))")
        }
    }

    @Test("a search path naming no schema is refused with what to fix")
    func missingSchema() async throws {
        let url = try #require(TestDatabase.url)
        let separator = url.contains("?") ? "&" : "?"
        let error = await #expect(throws: StoreError.self) {
            try await PostgresPasskeyStore.connect(url: "\(url)\(separator)search_path=passkeys_test_no_such_schema")
        }
        #expect(error?.code == .unavailable)
        #expect(error?.reason.contains("search_path") == true, "\(String(describing: error))")
    }
}
