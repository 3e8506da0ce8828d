/// The one error type of the `QRCode` module.
///
/// Branch on ``code``; it is stable across releases. ``reason`` explains what failed and what to do. Two errors
/// are equal when their codes are equal.
public struct QRCodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable identifier of a failure: an `UPPER_SNAKE` string that never changes meaning.
    public let code: Code
    /// What failed, and what to do about it.
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { "\(code.rawValue): \(reason)" }
}

extension QRCodeError {
    /// A stable error code. A struct, not an enum, so that new codes can be added without breaking callers.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The payload does not fit in the largest supported symbol (version 10) at the requested error
        /// correction level: at level M that is 213 bytes. Shorten the payload or choose a lower level.
        public static let payloadTooLarge = Self(rawValue: "PAYLOAD_TOO_LARGE")
    }
}
