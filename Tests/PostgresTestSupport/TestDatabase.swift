import Foundation
public import PasskeyStorePostgres
public import PostgresNIO
public import Testing

/// The PostgreSQL server the tests use: `PASSKEYS_POSTGRES_URL`, as printed by `scripts/postgres.sh`. Every test
/// works in schemas of its own, created empty for this run (`passkeys_test_<run>_<purpose>`) and dropped after,
/// so runs and tests never see each other's data.
public enum TestDatabase {
    public static let url: String? = ProcessInfo.processInfo.environment["PASSKEYS_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }
    public static var isConfigured: Bool { url != nil }
    public static let skipped: Comment =
        "PASSKEYS_POSTGRES_URL is not set: start a server with scripts/postgres.sh and set the variable to the URL it prints."

    /// Names this run's schemas apart from those of other runs on the same server.
    public static let run = String(UUID().uuidString.prefix(8)).lowercased()

    public static func configuration() throws -> PostgresPasskeyStore.Configuration {
        try PostgresPasskeyStore.Configuration(url: try #require(url))
    }

    /// Runs statements in order on one connection as the URL's user, and returns the last one's rows.
    @discardableResult
    public static func execute(_ statements: String...) async throws -> [PostgresRow] {
        try await execute(statements)
    }

    /// A connection of its own as the URL's user, outside any store. It waits as long as the URL's `connect_timeout`
    /// says, as the store's connections do: on a loaded machine PostgresNIO's default of ten seconds is not enough.
    public static func connect(id: Int) async throws -> PostgresConnection {
        let configuration = try configuration()
        var connectionConfiguration = PostgresConnection.Configuration(
            host: configuration.host,
            port: configuration.port,
            username: configuration.username,
            password: configuration.password,
            database: configuration.database,
            tls: .disable
        )
        connectionConfiguration.options.connectTimeout = .init(configuration.connectTimeout)
        do {
            return try await PostgresConnection.connect(
                configuration: connectionConfiguration,
                id: id,
                logger: Logger(label: "passkeys-tests")
            )
        } catch {
            throw Failure(error)
        }
    }

    /// A PostgresNIO error with what PostgresNIO's own description leaves out (by design, for production logs): the
    /// server's message or the client's cause, so that a failed test says why.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ error: any Error) { description = String(reflecting: error) }
    }

    /// Runs statements in order on one connection as the URL's user, and returns the last one's rows.
    @discardableResult
    public static func execute(_ statements: [String]) async throws -> [PostgresRow] {
        let connection = try await connect(id: 1)
        var rows: [PostgresRow] = []
        do {
            for statement in statements {
                rows = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: connection.logger)
                    .collect()
            }
        } catch {
            try? await connection.close()
            throw Failure(error)
        }
        try await connection.close()
        return rows
    }

    /// Creates an empty schema for `purpose` and returns its name and a store URL whose search path is it. The store
    /// waits up to a minute for a pooled connection (not the default ten seconds): the conformance checks run at once
    /// on one store, dozens of concurrent operations each, and a loaded two-core machine must not turn that queue
    /// into failures.
    public static func createSchema(_ purpose: String) async throws -> TestSchema {
        let name = "passkeys_test_\(run)_\(purpose)_\(Int.random(in: 0..<1_000_000))"
        try await execute(#"CREATE SCHEMA "\#(name)""#)
        let url = try #require(url)
        var components = try #require(URLComponents(string: url))
        components.queryItems =
            (components.queryItems ?? []).filter { !["search_path", "pool_size", "pool_timeout"].contains($0.name) } + [
                URLQueryItem(name: "search_path", value: name), URLQueryItem(name: "pool_size", value: "10"),
                URLQueryItem(name: "pool_timeout", value: "60"),
            ]
        return TestSchema(name: name, url: try #require(components.string))
    }

    /// Creates a schema, runs `body` with it, and drops it whether `body` succeeded or not.
    public static func withSchema(_ purpose: String, _ body: (TestSchema) async throws -> Void) async throws {
        let schema = try await createSchema(purpose)
        do {
            try await body(schema)
        } catch {
            try? await schema.drop()
            throw error
        }
        try await schema.drop()
    }
}

public struct TestSchema: Sendable {
    public let name: String
    /// The server's URL with `search_path` set to this schema.
    public let url: String

    /// Runs one statement with this schema as the search path, and returns its rows.
    @discardableResult
    public func execute(_ sql: String) async throws -> [PostgresRow] {
        try await TestDatabase.execute(#"SET search_path TO "\#(name)""#, sql)
    }

    public func drop() async throws {
        try await TestDatabase.execute(#"DROP SCHEMA IF EXISTS "\#(name)" CASCADE"#)
    }

    public func connect() async throws -> PostgresPasskeyStore {
        try await PostgresPasskeyStore.connect(url: url)
    }
}
