import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PasskeyServer
import Synchronization
import Testing

/// A local webhook endpoint over real HTTP on loopback: `POST /hooks` records each request and answers as its
/// behaviour says; `/elsewhere` records what a redirect would have brought there.
final class WebhookReceiver: Sendable {
    enum Behaviour: Sendable {
        /// Answers 204.
        case accept
        /// Answers `status` to the first `count` requests, then 204.
        case failFirst(Int, status: Int)
        /// Answers `status` to every request.
        case fail(status: Int)
        /// Answers 307 to `/elsewhere`.
        case redirect
        /// Answers 200 with a body that never ends (chunked), counting what it could send.
        case endless
        /// Holds every request until ``release()``, then answers 204.
        case held
    }

    /// A request as it arrived, and what it was answered.
    struct Request: Sendable {
        let headers: [String: String]
        let body: String
        let status: Int

        var id: String { headers["webhook-id"] ?? "" }
        var accepted: Bool { (200..<300).contains(status) }

        /// The event's `type` from the body.
        var type: String? { json?["type"] as? String }
        var data: [String: Any]? { json?["data"] as? [String: Any] }
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] }

        /// Whether the signature is the Standard Webhooks signature of this request with `secret` (checked here with
        /// the specification's steps, apart from the server's signer).
        func isSigned(with secret: String) -> Bool {
            guard let id = headers["webhook-id"], let timestamp = headers["webhook-timestamp"],
                let signatures = headers["webhook-signature"],
                let key = Data(base64Encoded: String(secret.dropFirst("whsec_".count)))
            else { return false }
            let mac = HMAC<SHA256>.authenticationCode(
                for: Data("\(id).\(timestamp).\(body)".utf8),
                using: SymmetricKey(data: key)
            )
            let expected = "v1," + Data(mac).base64EncodedString()
            return signatures.split(separator: " ").contains { $0 == expected }
        }
    }

    private struct State {
        var behaviour: Behaviour
        var requests: [Request] = []
        var elsewhere = 0
        var bytesSent = 0
        var bodyEnded = false
        var released = false
    }

    private let state: Mutex<State>

    init(_ behaviour: Behaviour) { state = Mutex(State(behaviour: behaviour)) }

    var requests: [Request] { state.withLock { $0.requests } }
    var accepted: [Request] { requests.filter(\.accepted) }
    var elsewhere: Int { state.withLock { $0.elsewhere } }
    var bytesSent: Int { state.withLock { $0.bytesSent } }
    var bodyEnded: Bool { state.withLock { $0.bodyEnded } }

    func behave(_ behaviour: Behaviour) { state.withLock { $0.behaviour = behaviour } }
    func release() { state.withLock { $0.released = true } }

    /// The test's secret for endpoints that post here: 32 bytes.
    static let secret = "whsec_" + Data((0..<32).map { UInt8($0 * 7 % 256) }).base64EncodedString()

    var router: Router<BasicRequestContext> {
        let router = Router()
        router.post("/hooks") { request, _ -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let (status, behaviour) = self.state.withLock { state -> (Int, Behaviour) in
                let status: Int
                switch state.behaviour {
                case .accept, .held: status = 204
                case .failFirst(let count, let failure):
                    let failed = state.requests.filter { !$0.accepted }.count
                    status = failed < count ? failure : 204
                case .fail(let failure): status = failure
                case .redirect: status = 307
                case .endless: status = 200
                }
                state.requests.append(Request(headers: headers, body: body, status: status))
                return (status, state.behaviour)
            }
            switch behaviour {
            case .redirect:
                return Response(status: .temporaryRedirect, headers: [.location: "/elsewhere"])
            case .held:
                while !self.state.withLock({ $0.released }) { try await Task.sleep(for: .milliseconds(20)) }
                return Response(status: .noContent)
            case .endless:
                let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 64 * 1024)
                return Response(
                    status: .ok,
                    body: ResponseBody { writer in
                        defer { self.state.withLock { $0.bodyEnded = true } }
                        for _ in 0..<4096 {
                            try await writer.write(chunk)
                            self.state.withLock { $0.bytesSent += chunk.readableBytes }
                            try await Task.sleep(for: .milliseconds(1))
                        }
                        try await writer.finish(nil)
                    }
                )
            default:
                return Response(status: HTTPResponse.Status(code: status))
            }
        }
        router.post("/elsewhere") { _, _ -> Response in
            self.state.withLock { $0.elsewhere += 1 }
            return Response(status: .noContent)
        }
        return router
    }

    /// Runs `body` with the receiver listening on a port of its own, and the URL of its endpoint.
    func listen<Value: Sendable>(_ body: @Sendable (String) async throws -> Value) async throws -> Value {
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            return try await body("http://127.0.0.1:\(port)/hooks")
        }
    }
}

extension ServerConfiguration {
    /// One endpoint named `crm` at `url`, receiving every event, retried after a second. The timeout is long, so
    /// that a loaded test machine does not turn a slow answer into a second delivery.
    mutating func postWebhooks(to url: String, events: [String] = ["*"], timeoutSeconds: Int = 30) {
        webhooks.endpoints = [.init(name: "crm", url: url, secret: WebhookReceiver.secret, events: events)]
        webhooks.firstRetrySeconds = 1
        webhooks.timeoutSeconds = timeoutSeconds
    }
}
