public import Foundation

/// One key's fixed window of counted events, as ``LimitStore/countLimitEvent(keyHash:window:at:)`` keeps it: the
/// events counted since `start`, until the window ends at `end`.
public struct LimitWindow: Sendable, Hashable {
    /// The SHA-256 of the key (a client address, a credential id, …), never the key itself.
    public var keyHash: [UInt8]
    public var start: Date
    public var end: Date
    public var count: Int

    /// How long after its end a window is kept before counting deletes it: an hour, so that servers whose clocks
    /// differ by less still agree on every window that has not ended.
    public static let retention: TimeInterval = 3600
    /// How many ended windows one call of ``LimitStore/countLimitEvent(keyHash:window:at:)`` deletes at most.
    public static let removedPerCall = 10

    public init(keyHash: [UInt8], start: Date, end: Date, count: Int) {
        self.keyHash = keyHash
        self.start = start
        self.end = end
        self.count = count
    }
}
