import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `passkeys serve`'s log handler: swift-log's `StreamLogHandler` line, byte for byte —
/// `<local time> <level> <label>: <key>=<value> … [<source>] <message>`, the metadata sorted by key — built as bytes
/// and handed to the file descriptor in one `write`.
///
/// The server logs a line per request, so the line's cost is paid on every request: this handler formats the time
/// once a second rather than once a line, builds the line as bytes rather than a string, and takes no `FILE` lock
/// (one `write` of a whole line is not interleaved with another thread's in a file or on a terminal, nor on a pipe
/// up to its 4 KiB atomic size).
struct LogLineHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    var metadataProvider: Logger.MetadataProvider?
    let label: String
    let descriptor: Int32

    init(label: String, descriptor: Int32 = STDERR_FILENO, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.descriptor = descriptor
        self.metadataProvider = metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line: [UInt8] = []
        line.reserveCapacity(192)
        line.append(contentsOf: Self.clock.timestamp())
        line.append(0x20)
        line.append(contentsOf: event.level.rawValue.utf8)
        if !label.isEmpty {
            line.append(0x20)
            line.append(contentsOf: label.utf8)
        }
        line.append(0x3A)
        for (key, value) in effectiveMetadata(event).sorted(by: { $0.key < $1.key }) {
            line.append(0x20)
            line.append(contentsOf: key.utf8)
            line.append(0x3D)
            if case .string(let text) = value {
                line.append(contentsOf: text.utf8)
            } else {
                line.append(contentsOf: value.description.utf8)
            }
        }
        line.append(contentsOf: " [".utf8)
        line.append(contentsOf: event.source.utf8)
        line.append(contentsOf: "] ".utf8)
        line.append(contentsOf: event.message.description.utf8)
        line.append(0x0A)
        emit(line)
    }

    /// The handler's metadata, the provider's over it, the call's over both, and the error's, as `StreamLogHandler`
    /// merges them.
    private func effectiveMetadata(_ event: LogEvent) -> Logger.Metadata {
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty {
            merged.merge(provided) { _, new in new }
        }
        if let explicit = event.metadata, !explicit.isEmpty {
            merged.merge(explicit) { _, new in new }
        }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        return merged
    }

    /// Writes the whole line, resuming after a signal or a partial write; a line that cannot be written is dropped.
    private func emit(_ line: [UInt8]) {
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// The current second in local time, as `strftime`'s `%Y-%m-%dT%H:%M:%S%z`, formatted once per second.
    private static let clock = SecondClock()

    private final class SecondClock: Sendable {
        private let last = Mutex<(second: time_t, text: [UInt8])>((-1, []))

        func timestamp() -> [UInt8] {
            let now = time(nil)
            return last.withLock { last in
                if last.second != now {
                    last = (now, Self.format(now))
                }
                return last.text
            }
        }

        private static func format(_ second: time_t) -> [UInt8] {
            var second = second
            var local = tm()
            guard localtime_r(&second, &local) != nil else { return Array("<unknown>".utf8) }
            var buffer = [CChar](repeating: 0, count: 64)
            let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
            return buffer[..<count].map { UInt8(bitPattern: $0) }
        }
    }
}
