import Foundation
import PasskeyStorage
import SQLiteNIO
import Testing

@testable import PasskeyStoreSQLite

@Suite("SQLite schema migrations")
struct MigrationTests {
    /// The rows of `schema_migrations`, as (version, applied_at).
    private func recorded(_ path: String) async throws -> [(version: Int, appliedAt: Double)] {
        try await withRawConnection(to: path) { connection in
            try await connection.query("SELECT version, applied_at FROM schema_migrations ORDER BY version").map {
                (Int($0.column("version")?.integer ?? -1), $0.column("applied_at")?.double ?? -1)
            }
        }
    }

    private func tables(_ path: String) async throws -> Set<String> {
        try await withRawConnection(to: path) { connection in
            Set(
                try await connection.query("SELECT name FROM sqlite_schema WHERE type = 'table'").compactMap {
                    $0.column("name")?.string
                }
            )
        }
    }

    private func columns(of table: String, in path: String) async throws -> Set<String> {
        try await withRawConnection(to: path) { connection in
            Set(
                try await connection.query("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap {
                    $0.column("name")?.string
                }
            )
        }
    }

    /// Inserts the credential as the code of schema versions 1 to 3 did, without the columns `workflow_run_id` and
    /// `console_enrolled` (the last two).
    private func insertCredentialBeforeWorkflowRuns(_ credential: CredentialRecordRow, in path: String) async throws {
        #expect(credential.workflowRunID == nil)
        #expect(!credential.consoleEnrolled)
        let columns = CredentialRows.columns.replacingOccurrences(of: ", workflow_run_id, console_enrolled", with: "")
        let binds = try CredentialRows.binds(credential).dropLast(2)
        let placeholders = Array(repeating: "?", count: binds.count).joined(separator: ", ")
        try await withRawConnection(to: path) { connection in
            _ = try await connection.query(
                "INSERT INTO credentials (\(columns)) VALUES (\(placeholders))",
                binds.map(\.sqliteData)
            )
        }
    }

    @Test("a new file gets every migration, recorded with its time")
    func freshFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let before = Date().timeIntervalSince1970
            let applied = try await withStore(at: path) { $0.migrationsApplied }
            #expect(applied == Migrations.all.map(\.version))
            #expect(applied.last == SQLitePasskeyStore.schemaVersion)
            let rows = try await recorded(path)
            #expect(rows.map(\.version) == Migrations.all.map(\.version))
            #expect(
                rows.allSatisfy {
                    $0.appliedAt >= before.rounded(.down) && $0.appliedAt <= Date().timeIntervalSince1970
                }
            )
            #expect(try await columns(of: "credentials", in: path).contains("workflow_run_id"))
            #expect(
                try await tables(path).isSuperset(of: [
                    "schema_migrations", "users", "credentials", "flows", "audit_events", "limit_windows",
                    "web_sessions", "workflow_runs",
                ])
            )
            try await withRawConnection(to: path) { connection in
                let mode = try await connection.query("PRAGMA journal_mode").first?.column("journal_mode")?.string
                #expect(mode == "wal")
            }
        }
    }

    @Test("reopening a migrated file applies nothing")
    func reopen() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            _ = try await withStore(at: path) { _ in }
            let first = try await recorded(path)
            let applied = try await withStore(at: path) { $0.migrationsApplied }
            #expect(applied.isEmpty)
            let second = try await recorded(path)
            #expect(second.map(\.version) == first.map(\.version))
            #expect(second.map(\.appliedAt) == first.map(\.appliedAt))
        }
    }

    @Test("a file of the first release gets every later migration alone, and keeps its data")
    func upgradeFromTheFirstSchema() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let user = Sample.user()
            let first = try await SQLitePasskeyStore.open(
                path: path,
                busyTimeout: .seconds(5),
                migrations: Array(Migrations.all.prefix(1))
            )
            _ = try await first.createUserIfAbsent(user)
            await first.close()
            #expect(try await tables(path).contains("limit_windows") == false)

            try await withStore(at: path) { store in
                #expect(store.migrationsApplied == Migrations.all.dropFirst().map(\.version))
                #expect(try await store.user(id: user.id) == user)
                let counted = try await store.countLimitEvent(keyHash: Sample.bytes(), window: 60, at: Sample.now)
                #expect(counted.count == 1)
            }
            #expect(try await recorded(path).map(\.version) == Migrations.all.map(\.version))
        }
    }

    @Test("a file of schema version 14 gets the webhook outbox, and keeps its audit log")
    func upgradeToWebhookOutbox() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let first = try await SQLitePasskeyStore.open(
                path: path,
                busyTimeout: .seconds(5),
                migrations: Migrations.all.filter { $0.version <= 14 }
            )
            try await first.appendAuditEvent(AuditEvent(time: Sample.now, actor: "system", action: "test.kept"))
            await first.close()
            #expect(try await tables(path).contains("webhook_deliveries") == false)

            try await withStore(at: path) { store in
                #expect(store.migrationsApplied == [15, 16, 17])
                let message = WebhookMessage(
                    id: "msg_upgrade",
                    endpoint: "crm",
                    eventType: "user.deleted",
                    payload: "{}",
                    createdAt: Sample.now
                )
                try await store.appendAuditEvent(
                    AuditEvent(time: Sample.now, actor: "system", action: "test.outbox"),
                    webhooks: [message]
                )
                let delivery = try await store.webhookDeliveries(endpoint: "crm", before: nil, limit: 1).first
                #expect(delivery?.message == message)
                #expect(
                    try await store.auditEvents(after: 0, limit: 10, userID: nil).map(\.action) == [
                        "test.kept", "test.outbox",
                    ]
                )
            }
        }
    }

    @Test("a file of schema version 15 gets the token sessions, and keeps its users")
    func upgradeToTokenSessions() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let user = Sample.user()
            let first = try await SQLitePasskeyStore.open(
                path: path,
                busyTimeout: .seconds(5),
                migrations: Migrations.all.filter { $0.version <= 15 }
            )
            _ = try await first.createUserIfAbsent(user)
            await first.close()
            #expect(try await tables(path).contains("refresh_tokens") == false)

            try await withStore(at: path) { store in
                #expect(store.migrationsApplied == [16, 17])
                let family = RefreshTokenFamily(
                    id: "sf_upgrade",
                    userID: user.id,
                    authTime: Sample.now,
                    methods: ["swk", "user"],
                    assurance: "passkey",
                    createdAt: Sample.now,
                    expiresAt: Sample.now + 3600
                )
                try await store.createRefreshTokenFamily(
                    family,
                    firstToken: RefreshToken(
                        tokenHash: Sample.bytes(),
                        familyID: family.id,
                        createdAt: Sample.now,
                        expiresAt: Sample.now + 600
                    )
                )
                #expect(try await store.refreshTokenFamilies(userID: user.id) == [family])
            }
        }
    }

    @Test("a file of schema version 2 gets the web sessions and the later migrations, and keeps its data")
    func upgradeFromTheLimitWindowsSchema() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let user = Sample.user()
            let flow = Sample.flow(userID: user.id)
            let credential = Sample.credential(userID: user.id)
            let key = Sample.bytes()
            let previous = try await SQLitePasskeyStore.open(
                path: path,
                busyTimeout: .seconds(5),
                migrations: Array(Migrations.all.prefix(2))
            )
            _ = try await previous.createUserIfAbsent(user)
            try await previous.createFlow(flow)
            _ = try await previous.countLimitEvent(keyHash: key, window: 60, at: Sample.now)
            await previous.close()
            try await insertCredentialBeforeWorkflowRuns(credential, in: path)
            #expect(try await tables(path).contains("web_sessions") == false)

            try await withStore(at: path) { store in
                #expect(store.migrationsApplied == Migrations.all.map(\.version).filter { $0 > 2 })
                #expect(try await store.user(id: user.id) == user)
                #expect(try await store.credential(id: credential.id) == credential)
                #expect(try await store.flow(id: flow.id) != nil)
                #expect(try await store.limitWindows(keyHashes: [key], at: Sample.now).map(\.count) == [1])
                let session = WebSessionRecord(
                    id: "ws_upgrade",
                    secretHash: Sample.bytes(),
                    kind: .demo,
                    userID: user.id,
                    operatorName: nil,
                    credentialID: credential.id,
                    clientIP: "192.0.2.1",
                    createdAt: Sample.now,
                    expiresAt: Sample.now + 3600
                )
                try await store.createWebSession(session)
                #expect(try await store.webSession(secretHash: session.secretHash, at: Sample.now) == session)
            }
            #expect(try await recorded(path).map(\.version) == Migrations.all.map(\.version))
        }
    }

    @Test("a file of schema version 3 gets the identity-verification runs and the purge indexes, and keeps its data")
    func upgradeFromTheWebSessionsSchema() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let user = Sample.user()
            let flow = Sample.flow(userID: user.id)
            let credential = Sample.credential(userID: user.id)
            let session = WebSessionRecord(
                id: "ws_upgrade",
                secretHash: Sample.bytes(),
                kind: .demo,
                userID: user.id,
                operatorName: nil,
                credentialID: credential.id,
                clientIP: "192.0.2.1",
                createdAt: Sample.now,
                expiresAt: Sample.now + 3600
            )
            let previous = try await SQLitePasskeyStore.open(
                path: path,
                busyTimeout: .seconds(5),
                migrations: Array(Migrations.all.prefix(3))
            )
            _ = try await previous.createUserIfAbsent(user)
            try await previous.createFlow(flow)
            try await previous.createWebSession(session)
            await previous.close()
            try await insertCredentialBeforeWorkflowRuns(credential, in: path)
            #expect(try await tables(path).contains("workflow_runs") == false)
            #expect(try await columns(of: "credentials", in: path).contains("workflow_run_id") == false)

            try await withStore(at: path) { store in
                #expect(store.migrationsApplied == Migrations.all.map(\.version).filter { $0 > 3 })
                #expect(try await store.user(id: user.id) == user)
                #expect(try await store.flow(id: flow.id) != nil)
                #expect(try await store.webSession(secretHash: session.secretHash, at: Sample.now) == session)
                let stored = try await store.credential(id: credential.id)
                #expect(stored == credential)
                #expect(stored != nil && stored?.workflowRunID == nil)
                #expect(try await store.credentials(userID: user.id) == [credential])

                let run = WorkflowRunRecord(
                    id: "idv_upgrade",
                    purpose: .enrollment,
                    userID: user.id,
                    flowID: flow.id,
                    status: .pending,
                    createdAt: Sample.now,
                    updatedAt: Sample.now,
                    expiresAt: Sample.now + 600
                )
                try await store.createWorkflowRun(run)
                #expect(try await store.workflowRun(flowID: flow.id) == run)
                var verified = Sample.credential(userID: user.id, name: "Verified")
                verified.workflowRunID = run.id
                try await store.insertCredential(
                    verified,
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(),
                    at: Sample.now
                )
                #expect(try await store.credential(id: verified.id)?.workflowRunID == run.id)
            }
            #expect(try await recorded(path).map(\.version) == Migrations.all.map(\.version))
            #expect(SQLitePasskeyStore.schemaVersion == Migrations.all.last?.version)
        }
    }

    @Test("a file migrated by a newer version is refused, and left as it was")
    func fileFromTheFuture() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            _ = try await withStore(at: path) { _ in }
            let future = SQLitePasskeyStore.schemaVersion + 1
            try await withRawConnection(to: path) { connection in
                _ = try await connection.query(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from the future', 0)",
                    [.integer(future)]
                )
            }
            let error = await storeError { _ = try await SQLitePasskeyStore.open(path: path) }
            #expect(error?.code == .unavailable)
            #expect(error?.reason.contains("schema version \(future)") == true)
            #expect(error?.reason.contains("newer") == true)
            #expect(try await recorded(path).map(\.version) == Migrations.all.map(\.version) + [future])
        }
    }

    @Test("a later migration applies to an older file, and only it")
    func laterMigration() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            _ = try await withStore(at: path) { _ in }
            let next = Migration(
                version: SQLitePasskeyStore.schemaVersion + 1,
                name: "test: a new table",
                script:
                    "CREATE TABLE extra (id INTEGER PRIMARY KEY); -- a comment; with a semicolon\nINSERT INTO extra (id) VALUES (1);"
            )
            let store = try await SQLitePasskeyStore.open(
                path: path,
                busyTimeout: .seconds(5),
                migrations: Migrations.all + [next]
            )
            #expect(store.migrationsApplied == [next.version])
            await store.close()
            #expect(try await tables(path).contains("extra"))
            // The build without the new migration now refuses the file.
            let error = await storeError { _ = try await SQLitePasskeyStore.open(path: path) }
            #expect(error?.code == .unavailable)
        }
    }

    @Test("a failing migration is rolled back whole and reported")
    func failingMigration() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            _ = try await withStore(at: path) { _ in }
            let broken = Migration(
                version: SQLitePasskeyStore.schemaVersion + 1,
                name: "test: broken",
                script: "CREATE TABLE half_done (id INTEGER PRIMARY KEY); INSERT INTO no_such_table VALUES (1);"
            )
            let error = await storeError {
                _ = try await SQLitePasskeyStore.open(
                    path: path,
                    busyTimeout: .seconds(5),
                    migrations: Migrations.all + [broken]
                )
            }
            #expect(error?.code == .unavailable)
            #expect(error?.reason.contains("test: broken") == true)
            #expect(try await tables(path).contains("half_done") == false)
            #expect(try await recorded(path).map(\.version) == Migrations.all.map(\.version))
            // The released schema still opens.
            _ = try await withStore(at: path) { _ in }
        }
    }

    @Test("data survives closing and reopening, times to the microsecond")
    func persistence() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let user = Sample.user()
            var flow = Sample.flow(userID: user.id, status: .optionsIssued)
            flow.challengeHash = Sample.bytes()
            flow.challengeExpiresAt = Date(timeIntervalSince1970: 1_800_000_060.123_456)
            var credential = Sample.credential(userID: user.id)
            credential.lastUsedAt = Date(timeIntervalSince1970: 1_800_000_005.5)
            credential.signCount = UInt32.max
            credential.transports = []
            let event = AuditEvent(
                time: Sample.now,
                actor: "system",
                action: "registration.completed",
                userID: user.id,
                details: ["quote": #"a "quoted" \ value"#, "unicode": "Ünïcødé ✓"]
            )
            let appended = try await withStore(at: path) { store in
                _ = try await store.createUserIfAbsent(user)
                try await store.createFlow(flow)
                try await store.insertCredential(
                    credential,
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(),
                    at: Sample.now
                )
                return try await store.appendAuditEvent(event)
            }
            try await withStore(at: path) { store in
                #expect(store.migrationsApplied.isEmpty)
                #expect(try await store.user(id: user.id) == user)
                #expect(try await store.credential(id: credential.id) == credential)
                #expect(try await store.credentials(userID: user.id) == [credential])
                let storedFlow = try #require(try await store.flow(id: flow.id))
                #expect(storedFlow.challengeHash == flow.challengeHash && storedFlow.payload == flow.payload)
                let expiry = try #require(storedFlow.challengeExpiresAt)
                #expect(abs(expiry.timeIntervalSince(flow.challengeExpiresAt!)) < 0.000_001)
                #expect(try await store.auditEvents(after: 0, limit: 10, userID: nil) == [appended])
            }
        }
    }

    @Test("scripts split into statements at semicolons outside quotes and comments")
    func scriptSplitting() {
        let script = """
            CREATE TABLE a (x TEXT DEFAULT ';'); -- comment; here
            INSERT INTO a VALUES ('it''s; fine');
            SELECT "odd;name" FROM a;

            """
        #expect(
            SQLScript.statements(in: script) == [
                "CREATE TABLE a (x TEXT DEFAULT ';')", "INSERT INTO a VALUES ('it''s; fine')",
                #"SELECT "odd;name" FROM a"#,
            ]
        )
        // Every migration changes something, but the steps that keep PostgreSQL's numbers (see `SchemaChanges`).
        let empty: Set = [Migrations.versionAlignment.version, Migrations.usersByName.version]
        #expect(Migrations.all.allSatisfy { !$0.statements.isEmpty || empty.contains($0.version) })
        // Ascending and unique; a version may be missing (reserved for a migration not here yet).
        let versions = Migrations.all.map(\.version)
        #expect(versions.first == 1 && zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 })
    }
}
