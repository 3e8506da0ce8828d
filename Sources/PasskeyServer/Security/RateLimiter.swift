import Foundation
import Synchronization

/// Fixed-window counters in process memory, for the client API's request rate per client address
/// (`limits.clientRequestsPerMinute`). That limit protects each process from being flooded, so each process keeps
/// its own: a client spread over N processes gets up to N times the rate, and no request pays for a database write.
/// The limits against guessing (failed sign-ins, wrong console API keys) must hold across processes: they count in
/// the store instead (see ``FailureLimit``).
///
/// The table of keys is bounded: past ``maximumKeys`` the ended windows go, and if that is not enough (a flood from
/// more addresses than that within one window) the oldest windows go too, down to nine tenths of the bound, so
/// that clearing is rare and the table never grows past the bound.
final class RateLimiter: Sendable {
    private struct Window {
        var start: Date
        var count: Int
    }

    private let windows = Mutex<[String: Window]>([:])
    let maximumKeys: Int

    init(maximumKeys: Int = 100_000) { self.maximumKeys = maximumKeys }

    /// Counts one event for `key`; returns nil when within `limit` per `window`, else the seconds to wait.
    func record(_ key: String, limit: Int, window: TimeInterval, at time: Date) -> Int? {
        windows.withLock { windows in
            if windows[key] == nil, windows.count >= maximumKeys {
                windows = windows.filter { time.timeIntervalSince($0.value.start) < window }
                if windows.count >= maximumKeys * 9 / 10 {
                    let kept = windows.sorted { $0.value.start > $1.value.start }.prefix(maximumKeys * 9 / 10)
                    windows = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
                }
            }
            var entry = windows[key] ?? Window(start: time, count: 0)
            if time.timeIntervalSince(entry.start) >= window { entry = Window(start: time, count: 0) }
            entry.count += 1
            windows[key] = entry
            guard entry.count > limit else { return nil }
            return max(1, Int((window - time.timeIntervalSince(entry.start)).rounded(.up)))
        }
    }

    /// How many keys the table holds.
    var count: Int { windows.withLock { $0.count } }
}
