import Foundation
import PasskeyServer
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyStoreSQLite
import ServiceLifecycle

/// The store a database setting names, with what must run beside it and how to close it.
struct OpenedStore: Sendable {
    let store: any PasskeyStore
    let services: [any Service]
    let close: @Sendable () async -> Void

    static func open(_ database: ServerConfiguration.Database) async throws -> OpenedStore {
        switch database {
        case .memory:
            return OpenedStore(store: MemoryPasskeyStore(), services: [], close: {})
        case .sqlite(let sqlite):
            let store = try await SQLitePasskeyStore.open(
                path: sqlite.path,
                durability: sqlite.syncsEveryCommit ? .everyCommit : .checkpoint
            )
            return OpenedStore(store: store, services: [], close: { await store.close() })
        case .postgres(let url):
            let store = try await PostgresPasskeyStore.connect(url: url)
            return OpenedStore(store: store, services: [], close: { await store.shutdown() })
        }
    }
}
