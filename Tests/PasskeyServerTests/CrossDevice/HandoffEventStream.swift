import Foundation

/// A reader of `GET …/events` on a raw connection, which hands over each `status` event as it arrives (an HTTP client
/// here would wait for the whole body). Blocking reads run on a thread of their own.
final class HandoffEventStream: @unchecked Sendable {
    private let connection: RawConnection
    /// What arrived and was not yet handed over (chunk framing included; events are found inside it).
    private var pending = ""
    private var closed = false

    /// - Parameter headers: more request header lines, such as `X-Forwarded-For: 203.0.113.7`.
    init(port: Int, handoff: Handoff, receiveTimeout: Duration = .seconds(5), headers: [String] = []) throws {
        connection = try RawConnection(port: port, receiveTimeout: receiveTimeout)
        try connection.send(
            "GET /v1/client/cross-platform/\(handoff.crossPlatformSessionId)/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer \(handoff.pollToken)\r\nAccept: text/event-stream\r\nConnection: close\r\n"
                + headers.map { $0 + "\r\n" }.joined() + "\r\n"
        )
    }

    /// Everything the server sends until it closes the connection (head and body), for a refused stream.
    func refusal() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        var text = ""
                        while true {
                            switch self.connection.receive() {
                            case .data(let bytes): text += String(decoding: bytes, as: UTF8.self)
                            case .closed: return text
                            case .nothing:
                                throw RawConnection.Failure(
                                    description: "the server neither refused nor closed: \(text)"
                                )
                            }
                        }
                    }
                )
            }.start()
        }
    }

    /// The next event's status, or nil when the server ended the stream; throws when nothing came in time.
    func next() async throws -> String? {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try self.nextBlocking() }) }.start()
        }
    }

    /// Waits for the next heartbeat comment (`: heartbeat`), which comes after 15 s without a change; the events
    /// before it stay to be read.
    func heartbeat() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread {
                continuation.resume(
                    with: Result {
                        while !self.pending.contains(": heartbeat\n") {
                            guard case .data(let bytes) = self.connection.receive() else {
                                throw RawConnection.Failure(description: "no heartbeat; got: \(self.pending)")
                            }
                            self.pending += String(decoding: bytes, as: UTF8.self)
                        }
                    }
                )
            }.start()
        }
    }

    /// Every response header line before the first event (to check the content type).
    private(set) var head = ""

    private func nextBlocking() throws -> String? {
        while true {
            if let status = takeEvent() { return status }
            if closed { return nil }
            switch connection.receive() {
            case .data(let bytes):
                pending += String(decoding: bytes, as: UTF8.self)
                if head.isEmpty, let end = pending.range(of: "\r\n\r\n") {
                    head = String(pending[..<end.lowerBound])
                    pending = String(pending[end.upperBound...])
                }
            case .closed:
                closed = true
            case .nothing:
                throw RawConnection.Failure(
                    description: "no event within the receive timeout; got: \(head) / \(pending)"
                )
            }
        }
    }

    /// Removes the first complete `data:` line from `pending` and returns its status.
    private func takeEvent() -> String? {
        guard let start = pending.range(of: "data: "),
            let end = pending.range(of: "\n", range: start.upperBound..<pending.endIndex)
        else { return nil }
        let data = String(pending[start.upperBound..<end.lowerBound])
        pending = String(pending[end.upperBound...])
        let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
        return object?["status"] as? String ?? "unreadable: \(data)"
    }
}
