import Foundation
import PasskeyServer
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyStoreSQLite
import PostgresTestSupport

/// The real databases a test of the pages runs on: a SQLite file, and a fresh PostgreSQL schema when
/// `PASSKEYS_POSTGRES_URL` is set (without it, SQLite only).
enum RealStore: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    var description: String { rawValue }

    /// The stores to run on here.
    static var available: [RealStore] { TestDatabase.isConfigured ? [.sqlite, .postgres] : [.sqlite] }

    /// Runs `body` with a fresh store of this kind, closed however `body` ends.
    func with(_ body: @Sendable (any PasskeyStore) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            try await SQLiteStoreTests.withDatabase { path in
                let store = try await SQLitePasskeyStore.open(path: path)
                do {
                    try await body(store)
                } catch {
                    await store.close()
                    throw error
                }
                await store.close()
            }
        case .postgres:
            try await TestDatabase.withSchema("pages") { schema in
                let store = try await schema.connect()
                do {
                    try await body(store)
                } catch {
                    await store.shutdown()
                    throw error
                }
                await store.shutdown()
            }
        }
    }

    /// Runs `body` against a server on a fresh store of this kind, over a real socket.
    func withLiveServer(
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (TestServer, API) async throws -> Void
    ) async throws {
        try await with { store in
            let server = try TestServer(store: store, configure: configure)
            try await server.withLiveAPI { api in try await body(server, api) }
        }
    }
}
