import Foundation
import PasskeyServer
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyStoreSQLite
import ServiceLifecycle

/// The store a database URL names, with what must run beside it and how to close it.
struct OpenedStore: Sendable {
    let store: any PasskeyStore
    let services: [any Service]
    let close: @Sendable () async -> Void

    static func open(_ url: String) async throws -> OpenedStore {
        if url == "memory" {
            return OpenedStore(store: MemoryPasskeyStore(), services: [], close: {})
        }
        if let sqlite = try SQLiteDatabase(url) {
            let store = try await SQLitePasskeyStore.open(
                path: sqlite.path,
                durability: sqlite.syncsEveryCommit ? .everyCommit : .checkpoint
            )
            return OpenedStore(store: store, services: [], close: { await store.close() })
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            let store = try await PostgresPasskeyStore.connect(url: url)
            return OpenedStore(store: store, services: [], close: { await store.shutdown() })
        }
        throw StoreError(.unavailable, "The database URL must be sqlite:PATH, postgres://… or memory.")
    }
}
