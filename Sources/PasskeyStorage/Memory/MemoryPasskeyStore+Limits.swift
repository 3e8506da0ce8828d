public import Foundation

extension MemoryPasskeyStore: LimitStore {
    public func countLimitEvent(keyHash: [UInt8], window: TimeInterval, at time: Date) -> LimitWindow {
        if var current = limitWindowsByKey[keyHash], current.end > time {
            current.count += 1
            limitWindowsByKey[keyHash] = current
            return current
        }
        let started = LimitWindow(keyHash: keyHash, start: time, end: time + window, count: 1)
        limitWindowsByKey[keyHash] = started
        let ended = limitWindowsByKey.values.lazy.filter { $0.end < time - LimitWindow.retention }
            .prefix(LimitWindow.removedPerCall).map(\.keyHash)
        for key in Array(ended) { limitWindowsByKey[key] = nil }
        return started
    }

    public func releaseLimitEvent(keyHash: [UInt8], at time: Date) {
        guard var current = limitWindowsByKey[keyHash], current.end > time, current.count > 0 else { return }
        current.count -= 1
        limitWindowsByKey[keyHash] = current
    }

    public func limitWindows(keyHashes: [[UInt8]], at time: Date) -> [LimitWindow] {
        Set(keyHashes).compactMap { limitWindowsByKey[$0] }.filter { $0.end > time }
    }
}
