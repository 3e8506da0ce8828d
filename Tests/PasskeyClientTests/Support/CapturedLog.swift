import Logging
import Synchronization

/// A swift-log backend that keeps what the SDK logs (message and metadata, one line per event), to check what a
/// debug log would show. Its loggers start at swift-log's default level, `info`, as an app's would.
final class CapturedLog: Sendable {
    private let events = Mutex<[String]>([])

    var lines: [String] { events.withLock { $0 } }
    var text: String { lines.joined(separator: "\n") }

    func makeLogger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "captured") { _ in Sink(log: self) }
        logger.logLevel = level
        return logger
    }

    private struct Sink: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let fields = (event.metadata ?? [:]).map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
            log.events.withLock { $0.append("[\(event.level)] \(event.message) \(fields)") }
        }
    }
}
