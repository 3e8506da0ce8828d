public import Foundation

/// The rate limits' fixed windows, kept by the SHA-256 of their keys (client addresses, credential ids). Part of
/// ``PasskeyStore``.
public protocol LimitStore: Sendable {
    /// Counts one event for the key whose SHA-256 is `keyHash`, in fixed windows, and returns the key's window after
    /// counting. When the key has no window, or its window has ended at `time`, a new one starts: from `time` until
    /// `window` seconds later, with a count of 1. Otherwise the window keeps its start and end and counts one more.
    ///
    /// One atomic operation: of any number of concurrent calls for a key, on one server or on several sharing a
    /// database, every one is counted and each sees a different count.
    ///
    /// Windows do not pile up: whenever a call starts a new window, it also deletes up to
    /// ``LimitWindow/removedPerCall`` windows that ended more than ``LimitWindow/retention`` before `time`. Until
    /// then an ended window is kept, so that a server whose clock is behind by less than that still sees it.
    func countLimitEvent(keyHash: [UInt8], window: TimeInterval, at time: Date) async throws(StoreError) -> LimitWindow
    /// Takes back one event that ``countLimitEvent(keyHash:window:at:)`` counted for the key: lowers the count of the
    /// key's window by one when the window has not ended at `time` and its count is above zero; otherwise does nothing.
    /// Atomic like counting.
    ///
    /// The window keeps its start and end. So a caller can count an attempt before checking it, which racing
    /// attempts cannot all slip past, and release it when the attempt turns out not to count (it succeeded).
    func releaseLimitEvent(keyHash: [UInt8], at time: Date) async throws(StoreError)
    /// The windows of the given keys that have not ended at `time`, in no particular order, without counting. A key
    /// without such a window is left out. One read, however many keys.
    func limitWindows(keyHashes: [[UInt8]], at time: Date) async throws(StoreError) -> [LimitWindow]
}
