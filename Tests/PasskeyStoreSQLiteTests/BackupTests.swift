import Foundation
import PasskeyStorage
import PasskeyStoreSQLite
import SQLiteNIO
import Synchronization
import Testing

/// What the writers of ``BackupTests/backupUnderLoad()`` had committed, and whether they go on.
private final class Writes: Sendable {
    let acknowledged = Mutex<[[UInt8]]>([])
    let running = Atomic<Bool>(true)
}

/// `SQLiteBackup.backup` while a store writes, and what `restore` accepts and refuses.
@Suite("Backup and restore")
struct BackupTests {
    /// Adds `count` credentials of a new user to the store and returns the user's id.
    static func seed(_ store: SQLitePasskeyStore, count: Int) async throws -> String {
        let user = try await store.createUserIfAbsent(Sample.user())
        let flow = Sample.flow(userID: user.id)
        try await store.createFlow(flow)
        for index in 0..<count {
            try await insert(store, userID: user.id, flowID: flow.id, name: "Seed \(index)")
        }
        return user.id
    }

    @discardableResult
    static func insert(
        _ store: SQLitePasskeyStore,
        userID: String,
        flowID: String,
        name: String
    ) async throws -> [UInt8] {
        let credential = Sample.credential(userID: userID, name: name)
        try await store.insertCredential(
            credential,
            maximumActive: 1_000_000,
            flowID: flowID,
            flowUpdate: FlowUpdate(),
            at: Sample.now
        )
        return credential.id
    }

    @Test("a backup taken while two writers commit holds every write acknowledged before it began, and checks ok")
    func backupUnderLoad() async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { store in
                let userID = try await Self.seed(store, count: 1500)
                let flow = Sample.flow(userID: userID)
                try await store.createFlow(flow)
                let writes = Writes()
                let copy = try await withThrowingTaskGroup(of: Void.self) { group in
                    for writer in 0..<2 {
                        group.addTask {
                            var index = 0
                            while writes.running.load(ordering: .relaxed) {
                                let id = try await Self.insert(
                                    store,
                                    userID: userID,
                                    flowID: flow.id,
                                    name: "Writer \(writer) \(index)"
                                )
                                writes.acknowledged.withLock { $0.append(id) }
                                index += 1
                            }
                        }
                    }
                    // Wait until the writers have committed, so the backup starts in the middle of their work.
                    while writes.acknowledged.withLock({ $0.count }) < 50 {
                        try await Task.sleep(for: .milliseconds(10))
                    }
                    let before = writes.acknowledged.withLock { $0 }
                    // One page per step: the copy takes hundreds of steps while the writers go on.
                    let inspection = try await SQLiteBackup.backup(
                        databaseAt: directory.file(),
                        to: directory.file("backup.sqlite"),
                        pagesPerStep: 1
                    )
                    writes.running.store(false, ordering: .relaxed)
                    try await group.waitForAll()
                    return (before, inspection)
                }
                let (before, inspection) = copy
                #expect(inspection.schemaVersion == SQLitePasskeyStore.schemaVersion)
                #expect(inspection.credentials >= 1500 + before.count)
                // The copy is one file, with nothing beside it, and checks ok when opened anew.
                let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                #expect(!files.contains { $0.hasPrefix("backup.sqlite-") || $0.contains(".partial-") })
                #expect(try BackupInspection.inspect(path: directory.file("backup.sqlite")) == inspection)
                try await withStore(at: directory.file("backup.sqlite")) { restored in
                    let ids = Set(try await restored.credentials(userID: userID).map(\.id))
                    #expect(ids.count == inspection.credentials)
                    #expect(before.allSatisfy { ids.contains($0) }, "a write acknowledged before the backup is missing")
                    let live = Set(try await store.credentials(userID: userID).map(\.id))
                    #expect(ids.isSubset(of: live))
                }
            }
        }
    }

    @Test("restore puts the backup in place; it refuses while a store has the file open, unless forced")
    func restoreRoundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let database = directory.file()
            let backup = directory.file("backup.sqlite")
            let userID = try await withStore(at: database) { store in
                let userID = try await Self.seed(store, count: 3)
                _ = try await SQLiteBackup.backup(databaseAt: database, to: backup)
                _ = try await Self.seed(store, count: 2)
                let refused = await storeError { _ = try await SQLiteBackup.restore(backupAt: backup, to: database) }
                #expect(refused?.code == .inUse)
                #expect(try await store.credentials(userID: userID).count == 3)
                return userID
            }
            // Closed: the restore replaces the file, and the later user is gone.
            let restored = try await SQLiteBackup.restore(backupAt: backup, to: database)
            #expect(restored.users == 1)
            #expect(restored.credentials == 3)
            try await withStore(at: database) { store async throws in
                #expect(try await store.credentials(userID: userID).count == 3)
                #expect(store.migrationsApplied.isEmpty)
            }
            // Forced while open: the file is replaced all the same.
            try await withStore(at: database) { store in
                _ = try await Self.seed(store, count: 1)
                let forced = try await SQLiteBackup.restore(backupAt: backup, to: database, force: true)
                #expect(forced.users == 1)
            }
            #expect(try BackupInspection.inspect(path: database).users == 1)
        }
    }

    @Test("restore refuses a backup from a newer schema, a damaged file and a foreign database, and keeps the old")
    func restoreRefusals() async throws {
        try await withTemporaryDirectory { directory in
            let database = directory.file()
            let userID = try await withStore(at: database) { try await Self.seed($0, count: 2) }
            let newer = directory.file("newer.sqlite")
            _ = try await SQLiteBackup.backup(databaseAt: database, to: newer)
            try await withRawConnection(to: newer) { connection in
                _ = try await connection.query(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)"
                )
            }
            let damaged = directory.file("damaged.sqlite")
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: damaged))
            let foreign = directory.file("foreign.sqlite")
            try await withRawConnection(to: foreign) { _ = try await $0.query("CREATE TABLE notes (text TEXT)") }
            let cases: [(String, StoreError.Code)] = [
                (newer, .newerSchema), (damaged, .corrupt), (foreign, .corrupt),
                (directory.file("missing.sqlite"), .notFound),
            ]
            for (backup, code) in cases {
                let refused = await storeError { _ = try await SQLiteBackup.restore(backupAt: backup, to: database) }
                #expect(refused?.code == code, "\(backup)")
            }
            #expect(await storeError { _ = try await SQLiteBackup.restore(backupAt: database, to: database) } != nil)
            try await withStore(at: database) { store async throws in
                #expect(try await store.credentials(userID: userID).count == 2)
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!files.contains { $0.contains(".partial-") }, "\(files)")
        }
    }
}
