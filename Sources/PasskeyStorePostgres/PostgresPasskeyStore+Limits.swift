public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: LimitStore {
    public func countLimitEvent(
        keyHash: [UInt8],
        window: TimeInterval,
        at time: Date
    ) async throws(StoreError) -> LimitWindow {
        let counted = try await rows(
            CountLimitEvent(keyHash: keyHash, start: time, end: time + window),
            doing: "count a limited event"
        )
        guard let row = counted.first else {
            throw StoreError(.corrupt, "The database returned no window for a counted event.")
        }
        let window = try LimitWindow(row)
        // Not each time the count is 1 (a released attempt brings it back to 0): when a window starts.
        if try RowReader(row, record: "limit window")("started", as: Bool.self) {
            // A statement of its own, so that it holds no lock while the count waits for one; rows another caller
            // is deleting are skipped rather than waited for.
            _ = try await rows(
                DeleteEndedLimitWindows(before: time - LimitWindow.retention),
                doing: "delete ended limit windows"
            )
        }
        return window
    }

    public func releaseLimitEvent(keyHash: [UInt8], at time: Date) async throws(StoreError) {
        _ = try await rows(ReleaseLimitEvent(keyHash: keyHash, time: time), doing: "release a limited event")
    }

    public func limitWindows(keyHashes: [[UInt8]], at time: Date) async throws(StoreError) -> [LimitWindow] {
        guard !keyHashes.isEmpty else { return [] }
        var windows: [LimitWindow] = []
        for row in try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.limitWindow)) FROM limit_windows
            WHERE key_hash = ANY(\(Set(keyHashes).map(\.bytea))) AND window_end > \(time)
            """,
            doing: "read limit windows"
        ) {
            windows.append(try LimitWindow(row))
        }
        return windows
    }
}

extension LimitWindow {
    init(_ row: PostgresRow) throws(StoreError) {
        let read = RowReader(row, record: "limit window")
        self.init(
            keyHash: try read.bytes("key_hash"),
            start: try read("window_start"),
            end: try read("window_end"),
            count: Int(try read("count", as: Int64.self))
        )
    }
}

/// Counts an event of a key at `start`: one statement, the insert or, when the key has a window, the update of its
/// row under the row's lock, so racing callers on any number of processes are counted one after the other.
/// `started` tells whether the event started a window (the key's first, or the first after its window ended).
struct CountLimitEvent: StoreStatement {
    static let sql = """
        INSERT INTO limit_windows AS w (key_hash, window_start, window_end, count)
        VALUES ($1, $2, $3, 1)
        ON CONFLICT (key_hash) DO UPDATE SET
            window_start = CASE WHEN w.window_end <= $2 THEN excluded.window_start ELSE w.window_start END,
            window_end = CASE WHEN w.window_end <= $2 THEN excluded.window_end ELSE w.window_end END,
            count = CASE WHEN w.window_end <= $2 THEN 1 ELSE w.count + 1 END
        RETURNING \(Columns.list(Columns.limitWindow)), window_start = $2 AS started
        """
    let keyHash: [UInt8]
    let start: Date
    let end: Date

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 3)
        binds.append(keyHash.bytea)
        binds.append(start)
        binds.append(end)
        return binds
    }
}

/// Gives back one counted event of a key whose window is still open: one statement under the row's lock, queued
/// with the counts of the key, so a release that waited for one checks its conditions again against what that
/// count committed.
struct ReleaseLimitEvent: StoreStatement {
    static let sql = """
        UPDATE limit_windows SET count = count - 1
        WHERE key_hash = $1 AND window_end > $2 AND count > 0
        """
    let keyHash: [UInt8]
    let time: Date

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 2)
        binds.append(keyHash.bytea)
        binds.append(time)
        return binds
    }
}

/// Deletes up to ``LimitWindow/removedPerCall`` windows that ended before `before`, the oldest first, skipping rows
/// another caller is deleting rather than waiting for them.
struct DeleteEndedLimitWindows: StoreStatement {
    static let sql = """
        DELETE FROM limit_windows WHERE key_hash IN (
            SELECT key_hash FROM limit_windows WHERE window_end < $1
            ORDER BY window_end LIMIT \(LimitWindow.removedPerCall) FOR UPDATE SKIP LOCKED
        )
        """
    let before: Date

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(before)
        return binds
    }
}
