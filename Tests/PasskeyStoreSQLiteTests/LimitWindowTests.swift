import Foundation
import PasskeyStorage
import PasskeyStoreSQLite
import SQLiteNIO
import Testing

/// What the limit windows' table holds, read with SQL as an operator would: key hashes only, and few ended windows.
@Suite("SQLite limit windows")
struct LimitWindowTests {
    /// The stored keys, in hexadecimal.
    private func storedKeys(_ path: String) async throws -> [String] {
        try await withRawConnection(to: path) { connection in
            try await connection.query("SELECT hex(key_hash) AS key FROM limit_windows").map {
                $0.column("key")?.string ?? ""
            }
        }
    }

    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    @Test("the table holds each key's hash as given, and one row per key however often it is counted")
    func oneRowPerKey() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let keys = [Sample.bytes(), Sample.bytes()]
            try await withStore(at: path) { store in
                for key in keys {
                    for _ in 0..<3 { _ = try await store.countLimitEvent(keyHash: key, window: 60, at: Sample.now) }
                }
            }
            #expect(Set(try await storedKeys(path)) == Set(keys.map(hex)))
            #expect(try await storedKeys(path).count == 2)
        }
    }

    @Test("a new window deletes at most LimitWindow.removedPerCall windows that ended over an hour before it")
    func boundedRemoval() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.file()
            let removed = LimitWindow.removedPerCall
            try await withStore(at: path) { store in
                for _ in 0..<(removed + 5) {
                    _ = try await store.countLimitEvent(keyHash: Sample.bytes(), window: 60, at: Sample.now - 86_400)
                }
                let current = Sample.bytes()
                _ = try await store.countLimitEvent(keyHash: current, window: 60, at: Sample.now)
                #expect(try await storedKeys(path).count == 5 + 1)
                // Counting in a window that has begun starts nothing, and deletes nothing.
                _ = try await store.countLimitEvent(keyHash: current, window: 60, at: Sample.now + 1)
                #expect(try await storedKeys(path).count == 5 + 1)
                _ = try await store.countLimitEvent(keyHash: Sample.bytes(), window: 60, at: Sample.now + 1)
                #expect(try await storedKeys(path).count == 2)
            }
        }
    }
}
