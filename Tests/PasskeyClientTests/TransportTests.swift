import Foundation
import PasskeyClient
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("The typed client API over URLSession: transport failures and error bodies")
struct TransportTests {
    /// A TCP socket on 127.0.0.1 that accepts connections into its backlog and never answers.
    final class SilentServer: @unchecked Sendable {
        let descriptor: Int32
        let port: Int

        init(listening: Bool = true) throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(descriptor)
                throw PasskeyError(.networkError, "bind failed")
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            port = Int(UInt16(bigEndian: address.sin_port))
            if listening { listen(descriptor, 8) }
        }

        /// Returns once a client has connected, so its request is in flight; the connection stays open, unanswered,
        /// until the server goes.
        func accepted() async {
            let connection = await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: accept(self.descriptor, nil, nil)) }.start()
            }
            lock.withLock { connections.append(connection) }
        }

        private let lock = NSLock()
        private var connections: [Int32] = []

        /// Answers one request with `200`, a JSON-typed body of `sending` bytes and, when given, a `Content-Length`
        /// of `declaredLength`; then keeps the connection open, sending nothing more, until the client hangs up (or
        /// 30 seconds pass). Returns whether the client hung up.
        func answerOnce(sending: Int, declaredLength: Int?) async -> Bool {
            await withCheckedContinuation { continuation in
                Thread {
                    let connection = accept(self.descriptor, nil, nil)
                    guard connection >= 0 else { return continuation.resume(returning: false) }
                    defer { close(connection) }
                    var timeout = timeval(tv_sec: 30, tv_usec: 0)
                    setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                    _ = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
                    let length = declaredLength.map { "Content-Length: \($0)\r\n" } ?? ""
                    let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(length)Connection: close\r\n\r\n"
                    var written = Self.send(Array(head.utf8), on: connection) > 0 ? 0 : sending
                    while written < sending {
                        let sent = Self.send(
                            [UInt8](repeating: UInt8(ascii: " "), count: min(65_536, sending - written)),
                            on: connection
                        )
                        guard sent > 0 else { break }
                        written += sent
                    }
                    // The client hangs up: a read returns 0 (or fails with a reset), not the timeout. What it sends
                    // before (the rest of its request) is skipped.
                    var end = 1
                    while end > 0 { end = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) } }
                    continuation.resume(returning: end == 0 || errno == ECONNRESET)
                }.start()
            }
        }

        /// `send` without SIGPIPE when the client has gone.
        private static func send(_ bytes: [UInt8], on connection: Int32) -> Int {
            #if canImport(Darwin)
            var on: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            return bytes.withUnsafeBytes { Darwin.send(connection, $0.baseAddress, $0.count, 0) }
            #else
            return bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #endif
        }

        deinit {
            for connection in connections where connection >= 0 { close(connection) }
            close(descriptor)
        }
    }

    static func api(port: Int, timeout: Duration) -> PasskeyClientAPI {
        PasskeyClientAPI(serverBaseURL: URL(string: "http://127.0.0.1:\(port)")!, timeout: timeout)
    }

    @Test("a refused connection is NETWORK_ERROR, retryable")
    func refused() async throws {
        let port: Int
        do {
            let closed = try SilentServer(listening: false)
            port = closed.port
        }
        let error = await passkeyError {
            _ = try await Self.api(port: port, timeout: .seconds(10)).authenticationOptions(
                sessionId: "auth_1",
                clientToken: "t"
            )
        }
        #expect(error?.code == .networkError)
        #expect(error?.isRetryable == true)
    }

    @Test("a server that never answers is TIMEOUT after the configured time")
    func timeout() async throws {
        // No wall-clock bound is asserted: on a loaded machine it would be flaky. Without a timeout the request
        // would hang and the test would never finish; TIMEOUT (not NETWORK_ERROR) shows which path ended it.
        let server = try SilentServer()
        let error = await passkeyError {
            _ = try await Self.api(port: server.port, timeout: .milliseconds(500)).authenticationOptions(
                sessionId: "auth_1",
                clientToken: "t"
            )
        }
        #expect(error?.code == .timeout)
    }

    @Test(
        "an answer over the size limit is refused as it arrives, not once all of it was received",
        arguments: [nil, 64 * 1024 * 1024]
    )
    func oversizedAnswerIsCutOff(declaredLength: Int?) async throws {
        let server = try SilentServer()
        // Twice the limit, and then nothing: a client that waits for the whole body waits until its timeout.
        async let hungUp = server.answerOnce(
            sending: 2 * URLSessionTransport.maximumResponseSize,
            declaredLength: declaredLength
        )
        let error = await passkeyError {
            _ = try await Self.api(port: server.port, timeout: .seconds(30)).authenticationOptions(
                sessionId: "auth_1",
                clientToken: "t"
            )
        }
        #expect(error?.code == .serverError, "\(String(describing: error))")
        #expect(error?.message.contains("larger than") == true)
        #expect(await hungUp, "the client hung up")
    }

    @Test("cancelling the calling task cancels the request: CANCELLED")
    func cancellation() async throws {
        let server = try SilentServer()
        let task = Task { () async -> PasskeyError? in
            await passkeyError {
                _ = try await Self.api(port: server.port, timeout: .seconds(30)).authenticationOptions(
                    sessionId: "auth_1",
                    clientToken: "t"
                )
            }
        }
        await server.accepted()
        task.cancel()
        #expect(await task.value?.code == .cancelled)
    }

    /// Answers every request with a fixed response.
    struct StubTransport: HTTPTransport {
        let response: HTTPTransportResponse
        func send(_ request: HTTPTransportRequest) async throws(PasskeyError) -> HTTPTransportResponse { response }
    }

    static func stubbed(_ status: Int, _ body: String, headers: [String: String] = [:]) -> PasskeyClientAPI {
        PasskeyClientAPI(
            serverBaseURL: URL(string: "https://passkeys.example.com")!,
            transport: StubTransport(
                response: HTTPTransportResponse(status: status, headers: headers, body: Array(body.utf8))
            )
        )
    }

    @Test("a JSON error body maps through the server code table and keeps what the server said")
    func errorBody() async throws {
        let body =
            #"{"error": {"code": "CHALLENGE_EXPIRED", "message": "The challenge expired.", "retryable": true, "requestId": "req_9"}}"#
        let error = await passkeyError {
            _ = try await Self.stubbed(410, body).authenticationOptions(sessionId: "auth_1", clientToken: "t")
        }
        #expect(error?.code == .challengeExpired)
        #expect(error?.message == "The challenge expired.")
        #expect(error?.isRetryable == true)
        #expect(error?.serverCode == "CHALLENGE_EXPIRED")
        #expect(error?.httpStatus == 410)
        #expect(error?.requestId == "req_9")

        let unknown = #"{"error": {"code": "BRAND_NEW_CODE", "message": "New.", "retryable": false}}"#
        let kept = await passkeyError {
            _ = try await Self.stubbed(409, unknown, headers: ["X-Request-Id": "req_h"]).authenticationOptions(
                sessionId: "a",
                clientToken: "t"
            )
        }
        #expect(kept?.code.rawValue == "BRAND_NEW_CODE")
        #expect(kept?.requestId == "req_h")
    }

    static let statuses: [(Int, PasskeyError.Code)] = [
        (502, .serverError), (503, .serverError), (504, .timeout), (429, .rateLimited),
        (404, .notFound), (401, .invalidOrExpiredSession),
    ]

    @Test("an answer without an error body maps by status", arguments: statuses)
    func statusOnly(status: Int, code: PasskeyError.Code) async {
        let error = await passkeyError {
            _ = try await Self.stubbed(status, "<html>Bad gateway</html>").authenticationOptions(
                sessionId: "a",
                clientToken: "t"
            )
        }
        #expect(error?.code == code)
        #expect(error?.httpStatus == status)
    }

    @Test("a 200 that is not our API is SERVER_ERROR")
    func notOurAPI() async {
        let error = await passkeyError {
            _ = try await Self.stubbed(200, #"{"hello": "world"}"#).authenticationOptions(
                sessionId: "a",
                clientToken: "t"
            )
        }
        #expect(error?.code == .serverError)
    }
}
