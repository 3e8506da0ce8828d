import Foundation
import PasskeyStorage

extension StoreConformance {
    static let limitRelease: [StoreConformanceCheck] = [
        StoreConformanceCheck("releasing takes back one counted event and keeps the window") { store in
            let key = Fixture.bytes()
            for _ in 0..<3 { _ = try await store.countLimitEvent(keyHash: key, window: 60, at: Fixture.now) }
            try await store.releaseLimitEvent(keyHash: key, at: Fixture.now + 10)
            let read = try await store.limitWindows(keyHashes: [key], at: Fixture.now + 10)
            let expected = LimitWindow(keyHash: key, start: Fixture.now, end: Fixture.now + 60, count: 2)
            try require(read == [expected], "releasing one of 3 events must leave 2 in the same window: \(read)")
            let next = try await store.countLimitEvent(keyHash: key, window: 60, at: Fixture.now + 20)
            try require(next.count == 3 && next.start == Fixture.now, "the next event must count 3 again: \(next)")
        },
        StoreConformanceCheck("releasing for an unknown key or an ended window does nothing") { store in
            let unknown = Fixture.bytes()
            try await store.releaseLimitEvent(keyHash: unknown, at: Fixture.now)
            let counted = try await store.countLimitEvent(keyHash: unknown, window: 60, at: Fixture.now)
            try require(counted.count == 1, "releasing an unknown key must not create a window: \(counted)")
            let key = Fixture.bytes()
            for _ in 0..<2 { _ = try await store.countLimitEvent(keyHash: key, window: 60, at: Fixture.now) }
            try await store.releaseLimitEvent(keyHash: key, at: Fixture.now + 60)
            let kept = try await store.limitWindows(keyHashes: [key], at: Fixture.now + 59)
            try require(kept.map(\.count) == [2], "releasing at the window's end must change nothing: \(kept)")
        },
        StoreConformanceCheck("releasing never takes the count below zero") { store in
            let key = Fixture.bytes()
            _ = try await store.countLimitEvent(keyHash: key, window: 60, at: Fixture.now)
            for _ in 0..<3 { try await store.releaseLimitEvent(keyHash: key, at: Fixture.now + 1) }
            let read = try await store.limitWindows(keyHashes: [key], at: Fixture.now + 1)
            try require(read.map(\.count) == [0], "the count must stop at zero: \(read)")
            let next = try await store.countLimitEvent(keyHash: key, window: 60, at: Fixture.now + 2)
            try require(
                next == LimitWindow(keyHash: key, start: Fixture.now, end: Fixture.now + 60, count: 1),
                "counting after must count 1 in the same window: \(next)"
            )
        },
        StoreConformanceCheck("50 concurrent count-then-release pairs and 10 counts: the window holds the 10") {
            store in
            let key = Fixture.bytes()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<60 {
                    group.addTask {
                        _ = try await store.countLimitEvent(keyHash: key, window: 60, at: Fixture.now)
                        if index >= 10 { try await store.releaseLimitEvent(keyHash: key, at: Fixture.now + 1) }
                    }
                }
                try await group.waitForAll()
            }
            let read = try await store.limitWindows(keyHashes: [key], at: Fixture.now + 1)
            try require(read.map(\.count) == [10], "the window must hold the 10 events not released: \(read)")
        },
    ]
}
