public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: LimitStore {
    public func countLimitEvent(
        keyHash: [UInt8],
        window: TimeInterval,
        at time: Date
    ) async throws(StoreError) -> LimitWindow {
        // One writing statement, which takes the file's write lock before it reads the key's window: racing
        // callers, in this process or others, are counted one after the other.
        try await connection.session { db in
            let rows = try db.rows(
                """
                INSERT INTO limit_windows (key_hash, window_start, window_end, count) VALUES (?1, ?2, ?3, 1)
                ON CONFLICT (key_hash) DO UPDATE SET
                    window_start = CASE WHEN window_end <= ?2 THEN ?2 ELSE window_start END,
                    window_end = CASE WHEN window_end <= ?2 THEN ?3 ELSE window_end END,
                    count = CASE WHEN window_end <= ?2 THEN 1 ELSE count + 1 END
                RETURNING \(LimitWindowRows.columns)
                """,
                [Bind.bytes(keyHash), Bind.date(time), Bind.date(time + window)]
            )
            guard let counted = try rows.first.map(LimitWindowRows.decode) else {
                throw StoreError(.corrupt, "The database returned no window for a counted event.")
            }
            // When the event started a window (not each time the count is 1: a released attempt brings it back to 0).
            if counted.start == time {
                try db.execute(
                    """
                    DELETE FROM limit_windows WHERE key_hash IN (
                        SELECT key_hash FROM limit_windows WHERE window_end < ? ORDER BY window_end LIMIT ?
                    )
                    """,
                    [Bind.date(time - LimitWindow.retention), Bind.integer(LimitWindow.removedPerCall)]
                )
            }
            return counted
        }
    }

    public func releaseLimitEvent(keyHash: [UInt8], at time: Date) async throws(StoreError) {
        // One writing statement, serialised with counting by the file's write lock.
        try await connection.session { db in
            try db.execute(
                "UPDATE limit_windows SET count = count - 1 WHERE key_hash = ? AND window_end > ? AND count > 0",
                [Bind.bytes(keyHash), Bind.date(time)]
            )
        }
    }

    public func limitWindows(keyHashes: [[UInt8]], at time: Date) async throws(StoreError) -> [LimitWindow] {
        let keys = Array(Set(keyHashes))
        guard !keys.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        return try await connection.session { db in
            try db.rows(
                """
                SELECT \(LimitWindowRows.columns) FROM limit_windows
                WHERE key_hash IN (\(placeholders)) AND window_end > ?
                """,
                keys.map { Bind.bytes($0) } + [Bind.date(time)]
            ).map(LimitWindowRows.decode)
        }
    }
}

enum LimitWindowRows {
    static let columns = "key_hash, window_start, window_end, count"

    static func decode(_ row: Row) throws(StoreError) -> LimitWindow {
        let reader = RowReader(row: row, table: "limit_windows")
        return LimitWindow(
            keyHash: try reader.bytes("key_hash"),
            start: try reader.date("window_start"),
            end: try reader.date("window_end"),
            count: try reader.int("count")
        )
    }
}
