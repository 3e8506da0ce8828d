import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyTesting
import PostgresNIO
import PostgresTestSupport
import Testing

@Suite("PostgreSQL store failures", .enabled(if: TestDatabase.isConfigured, TestDatabase.skipped))
struct PostgresFailureTests {
    static let now = TestTime.fixed

    func connect(_ change: (inout PostgresPasskeyStore.Configuration) -> Void) async throws -> StoreError? {
        var configuration = try TestDatabase.configuration()
        change(&configuration)
        configuration.connectTimeout = .seconds(5)
        do {
            let store = try await PostgresPasskeyStore.connect(configuration)
            await store.shutdown()
            return nil
        } catch {
            return error
        }
    }

    @Test("a wrong password is .unavailable, and says to check the password")
    func wrongPassword() async throws {
        let error = try await connect { $0.password = ($0.password ?? "") + "-wrong" }
        #expect(error?.code == .unavailable)
        #expect(error?.reason.contains("password") == true, "\(String(describing: error))")
    }

    @Test("a closed port is .unavailable, and says to check that the server is running and reachable")
    func closedPort() async throws {
        let error = try await connect { $0.port = 1 }
        #expect(error?.code == .unavailable)
        #expect(error?.reason.contains("running and reachable") == true, "\(String(describing: error))")
        #expect(
            error?.reason.contains("at \(try TestDatabase.configuration().host):1 ") == true,
            "\(String(describing: error))"
        )
    }

    @Test("a database that does not exist is .unavailable, and says so")
    func missingDatabase() async throws {
        let error = try await connect { $0.database = "passkeys_no_such_database" }
        #expect(error?.code == .unavailable)
        #expect(error?.reason.contains("does not exist") == true, "\(String(describing: error))")
    }

    @Test("no message carries the password")
    func passwordNeverShown() async throws {
        let password = try #require(try TestDatabase.configuration().password)
        for change in [
            { (c: inout PostgresPasskeyStore.Configuration) in c.port = 1 },
            { $0.database = "passkeys_no_such_database" },
        ] {
            let error = try await connect(change)
            #expect(error?.reason.contains(password) == false)
        }
    }

    @Test("operations after shutdown are .unavailable")
    func afterShutdown() async throws {
        try await TestDatabase.withSchema("shutdown") { schema in
            let store = try await schema.connect()
            await store.shutdown()
            let error = await #expect(throws: StoreError.self) { _ = try await store.user(id: "anyone") }
            #expect(error?.code == .unavailable)
        }
    }

    @Test("waiting too long for a pooled connection is .unavailable; the operation that holds it still completes")
    func poolSaturated() async throws {
        try await withSaturatedPool("pool", timeout: 1) { store, user in
            // The pool-timeout path is identified by its message; no wall-clock bound is asserted.
            let error = await #expect(throws: StoreError.self) { _ = try await store.user(id: user.id) }
            #expect(error?.code == .unavailable)
            #expect(error?.reason.contains("was free within") == true, "\(String(describing: error))")
        }
    }

    @Test("rows the store cannot read are .corrupt, and reading them never crashes")
    func corruptRows() async throws {
        try await TestDatabase.withSchema("corrupt") { schema in
            let store = try await schema.connect()
            defer { Task { await store.shutdown() } }
            try await schema.execute(
                "INSERT INTO audit_events (time, actor, action, details) VALUES (now(), 'system', 'a', '{\"count\": 1}')"
            )
            try await schema.execute(
                "INSERT INTO audit_events (time, actor, action, details) VALUES (now(), 'system', 'b', '[1, 2]')"
            )
            let audit = await #expect(throws: StoreError.self) {
                _ = try await store.auditEvents(after: 0, limit: 10, userID: nil)
            }
            #expect(audit?.code == .corrupt)
            #expect(audit?.reason.contains("details") == true, "\(String(describing: audit))")

            // Damage the database as other software might: drop a check and store a status the code does not know.
            try await schema.execute("INSERT INTO users VALUES ('user-corrupt', '\\x01', 'n', 'd', now())")
            try await schema.execute("ALTER TABLE credentials DROP CONSTRAINT credentials_status_check")
            try await schema.execute(
                """
                INSERT INTO credentials VALUES ('\\x0102', 'user-corrupt', '\\x', -7, 1, '', 'none', 'none', false, '{}', false,
                    false, false, 'n', 'n', 'lost', NULL, NULL, now(), NULL, NULL)
                """
            )
            let credential = await #expect(throws: StoreError.self) { _ = try await store.credential(id: [1, 2]) }
            #expect(credential?.code == .corrupt)
            #expect(credential?.reason.contains("status") == true, "\(String(describing: credential))")
            let listing = await #expect(throws: StoreError.self) {
                _ = try await store.credentials(userID: "user-corrupt")
            }
            #expect(listing?.code == .corrupt)

            // Odd but valid values read as they are: infinite timestamps, empty byte strings, a null in an array.
            try await schema.execute(
                """
                INSERT INTO flows VALUES ('flow-odd', 'registration', 'created', NULL, '\\x', NULL, NULL, NULL, NULL,
                    'infinity', '-infinity', now(), '\\x')
                """
            )
            let flow = try await store.flow(id: "flow-odd")
            #expect(flow?.payload == [] && flow?.clientTokenHash == [])
            try await schema.execute("UPDATE credentials SET status = 'active', transports = ARRAY['usb', NULL]")
            let nullInArray = await #expect(throws: StoreError.self) { _ = try await store.credential(id: [1, 2]) }
            #expect(nullInArray?.code == .corrupt)
        }
    }

    @Test("timestamps keep whole seconds exactly and fractions to the microsecond")
    func timestampPrecision() async throws {
        try await TestDatabase.withSchema("time") { schema in
            let store = try await schema.connect()
            let whole = Date(timeIntervalSince1970: 1_800_000_000)
            let fraction = Date(timeIntervalSince1970: 1_800_000_000.123456)
            let early = Date(timeIntervalSince1970: -86_400 * 365)
            for (index, time) in [whole, fraction, early].enumerated() {
                let user = UserRecord(
                    id: "user-\(index)",
                    handle: [UInt8(index)],
                    name: "user-\(index)",
                    displayName: "d",
                    createdAt: time
                )
                _ = try await store.createUserIfAbsent(user)
                let stored = try #require(try await store.user(id: user.id))
                if time == fraction {
                    #expect(abs(stored.createdAt.timeIntervalSince(time)) < 0.000_001)
                } else {
                    #expect(stored.createdAt == time)
                }
            }
            await store.shutdown()
        }
    }
}

@Suite("PostgreSQL URLs")
struct PostgresConfigurationTests {
    typealias Configuration = PostgresPasskeyStore.Configuration

    @Test("every part of the URL is read, percent-decoded")
    func fullURL() throws {
        let configuration = try Configuration(
            url:
                "postgres://pass%40keys:p%3Ass%2Fw%40rd@db.example.com:6543/pass%20keys?sslmode=require&search_path=tenant_1"
                + "&application_name=api&connect_timeout=3&pool_min=6&keepalive=0&pool_size=7"
        )
        #expect(configuration.username == "pass@keys")
        #expect(configuration.password == "p:ss/w@rd")
        #expect(configuration.host == "db.example.com")
        #expect(configuration.port == 6543)
        #expect(configuration.database == "pass keys")
        #expect(configuration.tls == .require)
        #expect(configuration.searchPath == "tenant_1")
        #expect(configuration.applicationName == "api")
        #expect(configuration.connectTimeout == .seconds(3))
        #expect(configuration.maximumConnections == 7)
        #expect(configuration.minimumConnections == 6)
        #expect(configuration.keepAlive == nil)
        #expect(try Configuration(url: "postgres://ada@h/db?keepalive=5").keepAlive == .seconds(5))
        #expect(!configuration.description.contains("p:ss/w@rd") && !configuration.description.contains("p%3Ass"))
    }

    @Test("defaults: port 5432, the user's database, sslmode prefer")
    func defaults() throws {
        let configuration = try Configuration(url: "postgresql://ada@127.0.0.1")
        #expect(configuration.port == 5432)
        #expect(configuration.database == "ada")
        #expect(configuration.password == nil)
        #expect(configuration.tls == .prefer)
        #expect(configuration.minimumConnections == 0 && configuration.keepAlive == .seconds(30))
        #expect(try Configuration(url: "postgres://ada@h/db?sslmode=disable").tls == .disable)
        #expect(try Configuration(url: "postgres://ada@h/db?sslmode=verify-full").tls == .require)
        let ipv6 = try Configuration(url: "postgres://ada@[::1]:6000/a%2Fb")
        #expect(ipv6.host == "::1" && ipv6.port == 6000 && ipv6.database == "a/b")
        #expect(ipv6.description == "postgres://ada@[::1]:6000/a/b?sslmode=prefer")
    }

    @Test(
        "unusable URLs are refused with what is wrong",
        arguments: [
            ("mysql://ada@h/db", "scheme"), ("postgres://h/db", "user"),
            ("postgres://ada@h/db?sslmode=always", "sslmode"),
            ("postgres://ada@h/db?sslmod=disable", "sslmod"), ("postgres://ada@h/db/x", "more than a database name"),
            ("postgres://ada@h/db?pool_size=0", "pool_size"),
            ("postgres://ada@h/db?pool_size=5&pool_min=5", "pool_min (5) must be less than pool_size (5)"),
            ("postgres://ada@h/db?pool_min=20", "pool_min"), ("postgres://ada@h/db?keepalive=-1", "keepalive"),
        ]
    )
    func refused(_ url: String, _ mentioned: String) {
        let error = #expect(throws: StoreError.self) { try Configuration(url: url) }
        #expect(error?.code == .unavailable)
        #expect(error?.reason.contains(mentioned) == true, "\(String(describing: error))")
    }
}
