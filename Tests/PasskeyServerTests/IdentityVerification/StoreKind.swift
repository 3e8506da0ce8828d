import Foundation
import PasskeyServer
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyStoreSQLite
import PostgresTestSupport

/// The stores the end-to-end tests of the assurance flows run on, over real HTTP: a SQLite file always, and
/// PostgreSQL when `PASSKEYS_POSTGRES_URL` names a server (the test script always starts one).
enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    var description: String { rawValue }

    static var available: [StoreKind] { TestDatabase.isConfigured ? [.sqlite, .postgres] : [.sqlite] }

    /// Runs `body` against a live server (a real socket) on a fresh store of this kind.
    func withLiveServer(
        configure: @escaping (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestServer, API) async throws -> Void
    ) async throws {
        switch self {
        case .sqlite:
            try await SQLiteStoreTests.withDatabase { path in
                let store = try await SQLitePasskeyStore.open(path: path)
                do {
                    let server = try TestServer(store: store, configure: configure)
                    try await server.withLiveAPI { api in try await body(server, api) }
                } catch {
                    await store.close()
                    throw error
                }
                await store.close()
            }
        case .postgres:
            try await TestDatabase.withSchema("assurance") { schema in
                let store = try await schema.connect()
                do {
                    let server = try TestServer(store: store, configure: configure)
                    try await server.withLiveAPI { api in try await body(server, api) }
                } catch {
                    await store.shutdown()
                    throw error
                }
                await store.shutdown()
            }
        }
    }
}
