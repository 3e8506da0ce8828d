import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A local stand-in for an identity-verification vendor, reached over real HTTP on loopback (no vendor can be
/// reached from the test machines): `POST /runs` answers as `behaviour` says, and it records what it was sent.
final class FakeVendor: Sendable {
    enum Behaviour: Sendable {
        /// Answers `{"idvToken", "vendorReference"}` at once.
        case answer
        /// Answers once the test calls ``release()``.
        case held
        /// Answers `307` to `/elsewhere`, which records what reaches it.
        case redirect
        /// Streams a body without end (chunked, no length), counting what it could send, until the client stops it.
        case endless
        /// Sends a byte of its answer every half second for 30 seconds: never idle, never done in time.
        case drip
        /// Before answering, reports an approval of the run to the server's webhook (`serverPort` must be set).
        case decideFirst
    }

    let behaviour: Behaviour
    private let state = Mutex(State())

    struct State {
        var runs = 0
        var inFlight = 0
        var mostInFlight = 0
        var redirected = 0
        var bytesSent = 0
        var released = false
        var serverPort: Int?
        var serverTime: Date?
        var earlyDecisionStatus: Int?
        var dripFinished = false
        var bodyEnded = false
    }

    init(_ behaviour: Behaviour) { self.behaviour = behaviour }

    var runs: Int { state.withLock { $0.runs } }
    var mostInFlight: Int { state.withLock { $0.mostInFlight } }
    var inFlight: Int { state.withLock { $0.inFlight } }
    var redirected: Int { state.withLock { $0.redirected } }
    var bytesSent: Int { state.withLock { $0.bytesSent } }
    var earlyDecisionStatus: Int? { state.withLock { $0.earlyDecisionStatus } }
    var dripFinished: Bool { state.withLock { $0.dripFinished } }
    /// Whether the endless body has stopped: the client went away, or all of it was sent.
    var bodyEnded: Bool { state.withLock { $0.bodyEnded } }

    func release() { state.withLock { $0.released = true } }

    /// Where the server listens, and its clock (the webhook's timestamp must be near it), for `.decideFirst`.
    func reportTo(port: Int, time: Date) {
        state.withLock {
            $0.serverPort = port
            $0.serverTime = time
        }
    }

    static let answerBody = #"{"idvToken": "vendor-token-1", "vendorReference": "ref-1"}"#

    var router: Router<BasicRequestContext> {
        let router = Router()
        router.post("/runs") { request, _ -> Response in
            let body = Array(buffer: try await request.body.collect(upTo: 65536))
            self.state.withLock {
                $0.runs += 1
                $0.inFlight += 1
                $0.mostInFlight = max($0.mostInFlight, $0.inFlight)
            }
            defer { self.state.withLock { $0.inFlight -= 1 } }
            switch self.behaviour {
            case .answer:
                break
            case .held:
                while !self.state.withLock({ $0.released }) { try await Task.sleep(for: .milliseconds(20)) }
            case .redirect:
                return Response(status: .temporaryRedirect, headers: [.location: "/elsewhere"])
            case .endless:
                let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 64 * 1024)
                return Response(
                    status: .ok,
                    headers: [.contentType: "application/json"],
                    body: ResponseBody { writer in
                        defer { self.state.withLock { $0.bodyEnded = true } }
                        // At most 256 MB, so that a client that never stops still ends the test; a pause after each
                        // chunk lets a client that has stopped reading be noticed before much more is sent.
                        for _ in 0..<4096 {
                            try await writer.write(chunk)
                            self.state.withLock { $0.bytesSent += chunk.readableBytes }
                            try await Task.sleep(for: .milliseconds(1))
                        }
                        try await writer.finish(nil)
                    }
                )
            case .drip:
                return Response(
                    status: .ok,
                    headers: [.contentType: "application/json"],
                    body: ResponseBody { writer in
                        for _ in 0..<60 {
                            try await writer.write(ByteBuffer(string: " "))
                            try await Task.sleep(for: .milliseconds(500))
                        }
                        try await writer.write(ByteBuffer(string: Self.answerBody))
                        self.state.withLock { $0.dripFinished = true }
                        try await writer.finish(nil)
                    }
                )
            case .decideFirst:
                let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
                let status = await self.reportApproval(of: json?["workflowRunId"] as? String ?? "")
                self.state.withLock { $0.earlyDecisionStatus = status }
            }
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: Self.answerBody))
            )
        }
        router.post("/elsewhere") { _, _ -> Response in
            self.state.withLock { $0.redirected += 1 }
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: Self.answerBody))
            )
        }
        return router
    }

    /// Sends the signed decision `{"eventId": "evt-early", "workflowRunId": run, "decision": "approved"}` to the
    /// server's webhook; returns its status.
    private func reportApproval(of run: String) async -> Int? {
        guard let (port, time) = state.withLock({ state in state.serverPort.map { ($0, state.serverTime ?? Date()) } }),
            let url = URL(string: "http://127.0.0.1:\(port)/v1/identity-verification/webhook")
        else { return nil }
        let body = Array(#"{"eventId": "evt-early", "workflowRunId": "\#(run)", "decision": "approved"}"#.utf8)
        let timestamp = Int(time.timeIntervalSince1970)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.setValue(String(timestamp), forHTTPHeaderField: "X-Passkeys-Timestamp")
        request.setValue(
            WebhookProviderTests.signature(body, timestamp: timestamp),
            forHTTPHeaderField: "X-Passkeys-Signature"
        )
        let response = try? await URLSession.shared.data(for: request).1
        return (response as? HTTPURLResponse)?.statusCode
    }
}

extension API {
    /// Sends one request on a connection of its own, so that several can be in flight at once (the test client's
    /// own connection sends one request after the other).
    func onOwnConnection(
        _ method: HTTPRequest.Method,
        _ path: String,
        bearer: String
    ) async throws -> APIResponse {
        let port = try #require(client.port)
        let connection = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(60)))
        connection.connect()
        do {
            let response = try await connection.execute(
                TestClient.Request(
                    path,
                    method: method,
                    authority: "localhost",
                    headers: [.authorization: "Bearer \(bearer)"]
                )
            )
            try await connection.shutdown()
            return APIResponse(
                status: response.status,
                headers: response.headers,
                body: response.body.map { Array($0.readableBytesView) } ?? []
            )
        } catch {
            try? await connection.shutdown()
            throw error
        }
    }
}
