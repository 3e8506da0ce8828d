import Foundation
import PasskeyStorage

extension StoreConformance {
    static let limits: [StoreConformanceCheck] = [
        StoreConformanceCheck("counting: the first event starts a window, later ones in it count one more each") {
            store in
            let key = Fixture.bytes()
            let first = try await store.countLimitEvent(keyHash: key, window: 60, at: Fixture.now)
            let expected = LimitWindow(keyHash: key, start: Fixture.now, end: Fixture.now + 60, count: 1)
            try require(first == expected, "the first event must start a window of 60 s: \(first)")
            for count in 2...4 {
                let window = try await store.countLimitEvent(keyHash: key, window: 60, at: Fixture.now + 59)
                try require(window == expected.counting(count), "event \(count) must count \(count): \(window)")
            }
        },
        StoreConformanceCheck("a window restarts at its end, with a count of 1") { store in
            let key = Fixture.bytes()
            for _ in 0..<3 { _ = try await store.countLimitEvent(keyHash: key, window: 60, at: Fixture.now) }
            let restarted = try await store.countLimitEvent(keyHash: key, window: 30, at: Fixture.now + 60)
            try require(
                restarted == LimitWindow(keyHash: key, start: Fixture.now + 60, end: Fixture.now + 90, count: 1),
                "the event at the window's end must start a new one of 30 s: \(restarted)"
            )
            let next = try await store.countLimitEvent(keyHash: key, window: 30, at: Fixture.now + 61)
            try require(next.count == 2 && next.start == Fixture.now + 60, "the new window must count on: \(next)")
        },
        StoreConformanceCheck("reading counts nothing and leaves out ended windows and unknown keys") { store in
            let key = Fixture.bytes()
            let unknown = Fixture.bytes()
            for _ in 0..<2 { _ = try await store.countLimitEvent(keyHash: key, window: 60, at: Fixture.now) }
            let expected = [LimitWindow(keyHash: key, start: Fixture.now, end: Fixture.now + 60, count: 2)]
            for _ in 0..<2 {
                let read = try await store.limitWindows(keyHashes: [unknown, key], at: Fixture.now + 59)
                try require(read == expected, "reading must return the window as counted, unchanged: \(read)")
            }
            let ended = try await store.limitWindows(keyHashes: [key], at: Fixture.now + 60)
            try require(ended.isEmpty, "a window that has ended must not be returned: \(ended)")
            try require(try await store.limitWindows(keyHashes: [], at: Fixture.now).isEmpty, "no keys, no windows")
            let counted = try await store.countLimitEvent(keyHash: unknown, window: 60, at: Fixture.now)
            try require(counted.count == 1, "reading must not have counted the unknown key: \(counted)")
        },
        StoreConformanceCheck("each key has a window of its own") { store in
            let keys = [Fixture.bytes(), Fixture.bytes(), Fixture.bytes()]
            for (index, key) in keys.enumerated() {
                for _ in 0...index {
                    _ = try await store.countLimitEvent(
                        keyHash: key,
                        window: TimeInterval(60 * (index + 1)),
                        at: Fixture.now
                    )
                }
            }
            let read = try await store.limitWindows(keyHashes: keys + [keys[0]], at: Fixture.now + 1)
            let expected = keys.enumerated().map { index, key in
                LimitWindow(
                    keyHash: key,
                    start: Fixture.now,
                    end: Fixture.now + TimeInterval(60 * (index + 1)),
                    count: index + 1
                )
            }
            try require(
                Set(read) == Set(expected) && read.count == 3,
                "each key must keep its own count and window: \(read)"
            )
        },
        StoreConformanceCheck("100 concurrent events for one key: each is counted, each sees its own count") { store in
            let key = Fixture.bytes()
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await store.countLimitEvent(keyHash: key, window: 60, at: Fixture.now).count }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            try require(counts.sorted() == Array(1...100), "the events must see the counts 1 to 100 once each")
            let read = try await store.limitWindows(keyHashes: [key], at: Fixture.now)
            try require(read.map(\.count) == [100], "the window must hold 100 events: \(read)")
        },
        StoreConformanceCheck("windows that ended over an hour ago are deleted as new windows start; later ones stay") {
            store in
            let old = Fixture.now - 86_400
            let oldKeys = (0..<(LimitWindow.removedPerCall * 2 + 5)).map { _ in Fixture.bytes() }
            for key in oldKeys { _ = try await store.countLimitEvent(keyHash: key, window: 60, at: old) }
            let recent = Fixture.bytes()
            // Ended half an hour ago: kept, whatever other checks running on the store count (at most minutes later).
            let recentStart = Fixture.now - 60 - LimitWindow.retention / 2
            _ = try await store.countLimitEvent(keyHash: recent, window: 60, at: recentStart)
            // Each new window deletes up to `removedPerCall` old ones: three are enough for all of them.
            for _ in 0..<3 {
                _ = try await store.countLimitEvent(keyHash: Fixture.bytes(), window: 60, at: Fixture.now)
            }
            let left = try await store.limitWindows(keyHashes: oldKeys, at: old)
            try require(left.isEmpty, "\(left.count) windows that ended a day ago are still stored")
            let kept = try await store.limitWindows(keyHashes: [recent], at: recentStart)
            try require(kept.map(\.count) == [1], "a window that ended half an hour ago must be kept: \(kept)")
        },
    ]
}

extension LimitWindow {
    fileprivate func counting(_ count: Int) -> Self {
        var window = self
        window.count = count
        return window
    }
}
