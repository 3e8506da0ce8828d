import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Synchronization
import Testing

/// The webhook provider against a small fake vendor on loopback: the server creates runs there, signed, and takes
/// the vendor's signed decisions — refusing a bad signature, an old timestamp and a replayed event.
@Suite("Identity verification: webhook provider")
struct WebhookProviderTests {
    static let secret = "vendor-shared-secret-0123456789abcdef"

    /// The signature as the vendor computes it: written out here, apart from the server's code.
    static func signature(_ body: [UInt8], timestamp: Int) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Array("\(timestamp).".utf8) + body,
            using: SymmetricKey(data: Array(secret.utf8))
        )
        return "v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// What the fake vendor received.
    final class Vendor: Sendable {
        struct Received: Sendable {
            let signed: Bool
            let workflowRunId: String?
            let purpose: String?
        }
        let requests = Mutex<[Received]>([])

        var router: Router<BasicRequestContext> {
            let router = Router()
            router.post("/runs") { request, _ -> Response in
                let body = Array(buffer: try await request.body.collect(upTo: 65536))
                let timestamp = request.headers[HTTPField.Name("X-Passkeys-Timestamp")!].flatMap { Int($0) } ?? 0
                let signed =
                    request.headers[HTTPField.Name("X-Passkeys-Signature")!]
                    == WebhookProviderTests.signature(body, timestamp: timestamp)
                let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
                let entry = Received(
                    signed: signed,
                    workflowRunId: json?["workflowRunId"] as? String,
                    purpose: json?["purpose"] as? String
                )
                self.requests.withLock { $0.append(entry) }
                guard signed else { return Response(status: .unauthorized) }
                return Response(
                    status: .ok,
                    headers: [.contentType: "application/json"],
                    body: .init(
                        byteBuffer: ByteBuffer(string: #"{"idvToken": "vendor-token-1", "vendorReference": "ref-1"}"#)
                    )
                )
            }
            return router
        }
    }

    static func configure(port: Int) -> (inout ServerConfiguration) -> Void {
        { configuration in
            configuration.identityVerification.provider = .webhook
            configuration.identityVerification.webhook = .init(url: "http://127.0.0.1:\(port)/runs", secret: secret)
        }
    }

    static func deliver(
        _ api: API,
        _ server: TestServer,
        event: String,
        run: String,
        decision: String = "approved",
        timestamp: Int? = nil,
        sign: Bool = true
    ) async throws -> APIResponse {
        let body = Array(#"{"eventId": "\#(event)", "workflowRunId": "\#(run)", "decision": "\#(decision)"}"#.utf8)
        let time = timestamp ?? Int(server.clock.now.timeIntervalSince1970)
        var headers: HTTPFields = [HTTPField.Name("X-Passkeys-Timestamp")!: String(time)]
        headers[HTTPField.Name("X-Passkeys-Signature")!] = sign ? signature(body, timestamp: time) : "v1=00"
        return try await api.send(.post, "/v1/identity-verification/webhook", body: body, headers: headers)
    }

    @Test("runs are created at the vendor, signed; its signed decision is taken once; bad ones are refused")
    func exchange() async throws {
        let vendor = Vendor()
        try await Application(router: vendor.router).test(.live) { vendorClient in
            let server = try TestServer(configure: Self.configure(port: try #require(vendorClient.port)))
            try await server.withAPI { api in
                let (attempt, run) = try await IdentityVerifiedEnrollmentTests.createVerifiedRegistration(
                    api,
                    userID: "ivy"
                )
                let received = vendor.requests.withLock { $0 }
                #expect(received.count == 1)
                #expect(received.first?.signed == true)
                #expect(received.first?.workflowRunId == run)
                #expect(received.first?.purpose == "enrollment")

                expectError(
                    try await Self.deliver(api, server, event: "evt-1", run: run, sign: false),
                    "WEBHOOK_SIGNATURE_INVALID",
                    .unauthorized
                )
                let old = Int(server.clock.now.timeIntervalSince1970) - 301
                expectError(
                    try await Self.deliver(api, server, event: "evt-1", run: run, timestamp: old),
                    "WEBHOOK_TIMESTAMP_INVALID",
                    .badRequest
                )
                expectError(
                    try await api.client(
                        .post,
                        Path.registrationOptions(attempt.registrationAttemptId),
                        token: attempt.clientToken
                    ),
                    "WORKFLOW_NOT_COMPLETED",
                    .conflict,
                    retryable: true
                )
                #expect(try await Self.deliver(api, server, event: "evt-1", run: run).status == .noContent)
                expectError(
                    try await Self.deliver(api, server, event: "evt-1", run: run, decision: "declined"),
                    "WEBHOOK_EVENT_REPLAYED",
                    .conflict
                )
                expectError(
                    try await Self.deliver(api, server, event: "evt-2", run: run, decision: "declined"),
                    "WORKFLOW_ALREADY_DECIDED",
                    .conflict
                )
                _ = try await api.registrationOptions(attempt)
                // The simulated provider's decision endpoint does not exist with this provider.
                expectError(
                    try await api.backend(
                        .post,
                        "/v1/identity-verification/runs/\(run)/decision",
                        json: #"{"decision": "approved"}"#
                    ),
                    "NOT_FOUND",
                    .notFound
                )
            }
        }
    }

    @Test(
        "a decision the vendor reports while the run is being created is applied, and its event spent with it",
        arguments: StoreKind.available
    )
    func decisionDuringCreation(kind: StoreKind) async throws {
        let vendor = FakeVendor(.decideFirst)
        try await Application(router: vendor.router).test(.live) { vendorClient in
            let port = try #require(vendorClient.port)
            try await kind.withLiveServer(configure: Self.configure(port: port)) { server, api in
                vendor.reportTo(port: try #require(api.client.port), time: server.clock.now)
                let (_, run) = try await IdentityVerifiedEnrollmentTests.createVerifiedRegistration(api, userID: "ivo")
                #expect(
                    vendor.earlyDecisionStatus == 204,
                    "the early decision was answered \(String(describing: vendor.earlyDecisionStatus))"
                )
                let stored = try await api.backend(.get, "/v1/identity-verification/runs/\(run)").json().object
                #expect(stored?["status"]?.string == "approved")
                // The event was spent with its decision: sent again, it is a replay.
                expectError(
                    try await Self.deliver(api, server, event: "evt-early", run: run),
                    "WEBHOOK_EVENT_REPLAYED",
                    .conflict
                )
            }
        }
    }

    @Test("a decision that met a store failure is taken when the vendor sends it again")
    func decisionAfterStoreFailure() async throws {
        let vendor = Vendor()
        try await Application(router: vendor.router).test(.live) { vendorClient in
            let store = FailingStore()
            let server = try TestServer(store: store, configure: Self.configure(port: try #require(vendorClient.port)))
            try await server.withLiveAPI { api in
                let (_, run) = try await IdentityVerifiedEnrollmentTests.createVerifiedRegistration(api, userID: "iza")
                // The database is away (a seam that cannot be made to fail on demand on a real one).
                store.failWorkflowRuns(with: StoreError(.unavailable, "the database is away"))
                #expect(try await Self.deliver(api, server, event: "evt-9", run: run).status == .serviceUnavailable)
                store.failWorkflowRuns(with: nil)
                #expect(try await Self.deliver(api, server, event: "evt-9", run: run).status == .noContent)
                let stored = try await api.backend(.get, "/v1/identity-verification/runs/\(run)").json().object
                #expect(stored?["status"]?.string == "approved")
            }
        }
    }

    @Test("a vendor that cannot be reached is IDENTITY_VERIFICATION_UNAVAILABLE, and no attempt is created")
    func unreachable() async throws {
        // A port nothing listens on: the vendor app has stopped.
        let port = try await Application(router: Vendor().router).test(.live) { client in try #require(client.port) }
        let server = try TestServer(configure: Self.configure(port: port))
        try await server.withAPI { api in
            let response = try await api.backend(
                .post,
                "/v1/registrations",
                json: #"{"userId": "jo", "userName": "jo", "identityVerification": "required"}"#
            )
            expectError(response, "IDENTITY_VERIFICATION_UNAVAILABLE", .badGateway, retryable: true)
            let audit = try await api.backend(.get, "/v1/audit-events?userId=jo").text
            #expect(!audit.contains("registration.created"))
            // The webhook refuses events without the secret even for unknown runs.
            expectError(
                try await Self.deliver(api, server, event: "e", run: "idv_x", sign: false),
                "WEBHOOK_SIGNATURE_INVALID",
                .unauthorized
            )
        }
    }

    @Test(
        "without the webhook provider a complete call finds nothing (404); one missing a header is refused as such",
        arguments: [false, true]
    )
    func absent(simulated: Bool) async throws {
        let server = try simulated ? TestServer(configure: IdentityVerifiedEnrollmentTests.simulated) : TestServer()
        try await server.withAPI { api in
            expectError(try await Self.deliver(api, server, event: "e", run: "idv_x"), "NOT_FOUND", .notFound)
            let body = Array(#"{"eventId": "e", "workflowRunId": "idv_x", "decision": "approved"}"#.utf8)
            let path = "/v1/identity-verification/webhook"
            expectError(
                try await api.send(.post, path, body: body, headers: [:]),
                "WEBHOOK_TIMESTAMP_INVALID",
                .badRequest
            )
            let timestamp: HTTPFields = [HTTPField.Name("X-Passkeys-Timestamp")!: "1700000000"]
            expectError(
                try await api.send(.post, path, body: body, headers: timestamp),
                "WEBHOOK_SIGNATURE_INVALID",
                .unauthorized
            )
        }
    }
}
