import Foundation
import Logging
import Synchronization
import Testing

@testable import PasskeysCommandLine

/// `passkeys serve` writes its log with its own handler; its lines must be swift-log's `StreamLogHandler` lines, so
/// that whatever reads the log (an operator's grep, a log shipper's pattern) reads the same text.
@Suite struct LogLineHandlerTests {
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "the store is closed" }
    }

    static let events: [LogEvent] = [
        LogEvent(
            level: .info,
            message: "request",
            error: nil,
            metadata: ["status": "200", "method": "POST", "route": "/v1/authentications/{id}/redeem"],
            source: "PasskeyServer",
            file: #fileID,
            function: #function,
            line: #line
        ),
        LogEvent(
            level: .error,
            message: "audit event could not be stored",
            error: Refusal(),
            metadata: ["action": "authentication.completed", "count": .stringConvertible(3)],
            source: "PasskeyServer",
            file: #fileID,
            function: #function,
            line: #line
        ),
        LogEvent(
            level: .warning,
            message: "naïve e\u{301} 👩‍💻 \"quoted\"",
            error: nil,
            metadata: ["list": ["a", "b"], "map": ["k": "v"], "empty": ""],
            source: "passkeys",
            file: #fileID,
            function: #function,
            line: #line
        ),
        LogEvent(
            level: .notice,
            message: "no metadata",
            error: nil,
            metadata: nil,
            source: "passkeys",
            file: #fileID,
            function: #function,
            line: #line
        ),
    ]

    @Test(arguments: events.indices, ["passkeys", ""])
    func writesTheStreamHandlersLine(index: Int, label: String) throws {
        let event = Self.events[index]
        let stream = CapturedStream()
        var reference = StreamLogHandler(label: label, stream: stream, metadataProvider: nil)
        reference[metadataKey: "request_id"] = "req_1"

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { unlink(path) }
        var handler = LogLineHandler(label: label, descriptor: descriptor)
        handler[metadataKey: "request_id"] = "req_1"

        reference.log(event: event)
        handler.log(event: event)
        close(descriptor)

        let written = try String(contentsOfFile: path, encoding: .utf8)
        let expected = stream.text
        // The lines agree after the time, which is the same second unless the two calls straddle one.
        let (time, rest) = try #require(Self.split(written))
        let (_, expectedRest) = try #require(Self.split(expected))
        #expect(rest == expectedRest)
        #expect(time.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}/) != nil)
        #expect(written.hasSuffix("\n") && written.filter { $0 == "\n" }.count == 1)
    }

    @Test func keepsTheMetadataItWasGiven() {
        var handler = LogLineHandler(label: "passkeys")
        handler[metadataKey: "request_id"] = "req_2"
        handler.logLevel = .notice
        #expect(handler[metadataKey: "request_id"] == "req_2")
        #expect(handler.metadata == ["request_id": "req_2"])
        #expect(handler.logLevel == .notice)
    }

    private static func split(_ line: String) -> (Substring, Substring)? {
        guard let space = line.firstIndex(of: " ") else { return nil }
        return (line[..<space], line[line.index(after: space)...])
    }
}

/// A `TextOutputStream` that keeps what `StreamLogHandler` writes.
private final class CapturedStream: TextOutputStream, Sendable {
    private let written = Mutex("")
    var text: String { written.withLock { $0 } }
    func write(_ string: String) { written.withLock { $0 += string } }
}
