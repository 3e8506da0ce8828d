/// The one error type of `PasskeyClient`.
///
/// Branch on ``code``: it is a stable `UPPER_SNAKE` string that never changes meaning. ``message`` says, for the
/// developer who reads a log, what failed and what to do. ``isRetryable`` tells whether trying the same thing
/// again may succeed (after a network failure, a rate limit, an expired challenge). Two errors are equal when
/// their codes are equal.
///
/// Errors the server reports keep its code in ``serverCode`` (and its request id), so nothing the server said is
/// lost even when the SDK maps it onto one of its own codes.
public struct PasskeyError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: Code
    public let message: String
    public let isRetryable: Bool
    /// The underlying error, when one caused this (a transport error, a key store I/O error).
    public let cause: (any Error & Sendable)?
    /// The server's error code, when the server reported the failure.
    public let serverCode: String?
    /// The HTTP status of the server's answer, when the server reported the failure.
    public let httpStatus: Int?
    /// The server's request id (`X-Request-Id`), to find the request in the server's log.
    public let requestId: String?

    public init(
        _ code: Code,
        _ message: String,
        isRetryable: Bool? = nil,
        cause: (any Error & Sendable)? = nil,
        serverCode: String? = nil,
        httpStatus: Int? = nil,
        requestId: String? = nil
    ) {
        self.code = code
        self.message = message
        self.isRetryable = isRetryable ?? code.isRetryableByDefault
        self.cause = cause
        self.serverCode = serverCode
        self.httpStatus = httpStatus
        self.requestId = requestId
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let serverCode, serverCode != code.rawValue { text += " (server: \(serverCode))" }
        if let requestId { text += " [request \(requestId)]" }
        return text
    }
}

extension PasskeyError {
    /// A stable error code. A struct, not an enum, so that new codes (and codes from newer servers) can appear
    /// without breaking callers: compare with the constants, and treat codes you do not know as failures.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible,
        ExpressibleByStringLiteral
    {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }

        public init(from decoder: any Decoder) throws {
            self.rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
