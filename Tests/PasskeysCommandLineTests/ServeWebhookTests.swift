import Foundation
import Hummingbird
import HummingbirdTesting
import ProcessTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The webhook outbox survives a crash: events committed by a `passkeys serve` that is killed with SIGKILL before
/// they were delivered are delivered by the next `passkeys serve` on the same database file.
@Suite("passkeys serve: webhooks across a crash")
struct ServeWebhookTests {
    static let apiKey = "pk_test_cli_webhooks_0123456789abcdef"
    static let secret = "whsec_" + Data((0..<32).map { UInt8($0 * 11 % 256) }).base64EncodedString()

    /// An endpoint that answers 503 until it is told to accept, and records the message ids of what it accepted.
    final class Endpoint: Sendable {
        private let state = Mutex((accepting: false, attempts: [String](), accepted: [String]()))

        var attempts: [String] { state.withLock { $0.attempts } }
        var accepted: [String] { state.withLock { $0.accepted } }
        func accept() { state.withLock { $0.accepting = true } }

        var router: Router<BasicRequestContext> {
            let router = Router()
            router.post("/hooks") { request, _ -> Response in
                _ = try await request.body.collect(upTo: 1 << 16)
                let id = request.headers[.init("webhook-id")!] ?? ""
                let accepting = self.state.withLock { state in
                    state.attempts.append(id)
                    if state.accepting { state.accepted.append(id) }
                    return state.accepting
                }
                return Response(status: accepting ? .noContent : .serviceUnavailable)
            }
            return router
        }
    }

    /// Starts `passkeys serve` with `config` on `database` and returns it with its base URL once it serves.
    static func serve(config: String, database: String) async throws -> (ChildProcess, String) {
        let executable = try #require(ExecutableTests.executable, "the passkeys executable is not built")
        let server = try ChildProcess.launch(
            executable.path,
            ["serve", "--config", config, "--port", "0", "--database", "sqlite:\(database)", "--api-key", apiKey]
        )
        let prefix = "passkeys serving "
        while true {
            if let line = server.standardOutput.split(separator: "\n").first, line.hasPrefix(prefix) {
                return (server, String(line.dropFirst(prefix.count).prefix { $0 != " " }))
            }
            try #require(server.terminationStatus == nil, "passkeys serve exited: \(server.standardError)")
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    static func backend(_ method: String, _ url: String, json: String? = nil) async throws -> Int {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization")
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    @Test("events committed before a SIGKILL are delivered after the restart")
    func deliveredAfterACrash() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let database = folder.url.appendingPathComponent("passkeys.sqlite").path
        let endpoint = Endpoint()
        try await Application(router: endpoint.router).test(.live) { client in
            let port = try #require(client.port)
            let config = try folder.file(
                "passkeys.json",
                #"""
                {"webhooks": {"firstRetrySeconds": 1, "endpoints": [
                    {"name": "crm", "url": "http://127.0.0.1:\#(port)/hooks", "secret": "\#(Self.secret)", "events": ["user.deleted"]}
                ]}}
                """#
            )
            let (first, url) = try await Self.serve(config: config, database: database)
            for user in ["ada", "grace", "linus"] {
                #expect(
                    try await Self.backend(
                        "POST",
                        "\(url)/v1/registrations",
                        json: #"{"userId": "\#(user)", "userName": "\#(user)@example.com"}"#
                    ) == 201
                )
                #expect(try await Self.backend("DELETE", "\(url)/v1/users/\(user)") == 204)
            }
            // Committed, and tried at least once each, but not delivered: then the server dies without a word.
            #expect(await eventually { Set(endpoint.attempts).count == 3 }, "\(endpoint.attempts)")
            first.kill(SIGKILL)
            #expect(await first.exit(within: .seconds(10)) == 128 + SIGKILL)
            #expect(endpoint.accepted.isEmpty)
            let ids = Set(endpoint.attempts)

            endpoint.accept()
            let (second, _) = try await Self.serve(config: config, database: database)
            // A delivery is due again after its back-off (seconds here), or, if the kill came in the middle of its
            // attempt, once that attempt's claim lapsed (its timeout and a minute): wait for as long as that.
            let delivered = await eventually(within: 300) { Set(endpoint.accepted) == ids }
            await second.stop()
            #expect(delivered, "accepted \(endpoint.accepted), expected \(ids)")
            #expect(endpoint.accepted.count == 3, "each once: \(endpoint.accepted)")
        }
    }
}
