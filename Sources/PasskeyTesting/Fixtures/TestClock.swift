public import Foundation
import Synchronization

/// A clock for code that takes `now: @Sendable () -> Date` (``PasskeyService``, the authenticators): it starts at a
/// fixed time and moves only when the test moves it, so a test waits for an expiry by advancing it, not by sleeping.
public final class TestClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = TestTime.fixed) {
        current = Mutex(start)
    }

    /// The time it shows.
    public var now: Date {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The clock as the closure the code under test reads.
    public var read: @Sendable () -> Date { { self.now } }
}
