import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import WebAuthn

/// A `PasskeyService` with a movable clock, captured logs and one backend API key, and the HTTP application
/// built from it with `PasskeyApplication.build` — the same builder `passkeys serve` uses.
struct TestServer: Sendable {
    static let apiKey = "test-api-key-0123456789-abcdefgh"

    let service: PasskeyService
    /// The store the service runs on.
    let store: any PasskeyStore
    let clock: TestClock
    let logs: LogCapture

    var configuration: ServerConfiguration { service.configuration }
    /// The web origin a browser on the relying party's site presents.
    var origin: String { configuration.webOrigins[0] }
    var rpID: String { configuration.rpId }

    /// - Parameter metadata: the FIDO metadata loaded for `policy.metadata`, when `configure` sets it.
    init(
        store: any PasskeyStore = MemoryPasskeyStore(),
        metadata: MetadataPolicy? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        var configuration = ServerConfiguration()
        configuration.apiKeys = [.init(name: "test", key: Self.apiKey)]
        // ``withLiveAPI``'s client connects when the test starts, and on a loaded machine a test may take longer than
        // the default 10 s before its first request: the longest wait the configuration allows, unless a test sets
        // its own (the connection-limit tests do).
        configuration.limits.requestHeaderTimeoutSeconds = 300
        configure(&configuration)
        let clock = TestClock()
        let logs = LogCapture()
        self.clock = clock
        self.logs = logs
        self.store = store
        self.service = try PasskeyService(
            configuration: configuration,
            store: store,
            logger: logs.logger("passkeys"),
            now: clock.read,
            metadata: metadata
        )
    }

    /// Runs `body` against the application in process (no socket).
    func withAPI<Value: Sendable>(_ body: @Sendable (API) async throws -> Value) async throws -> Value {
        let app = PasskeyApplication.build(service: service, logger: logs.logger("passkeys.http"))
        return try await app.test(.router) { client in try await body(API(client: client, server: self)) }
    }

    /// Runs `body` against the application listening on a real socket (an ephemeral port on localhost).
    func withLiveAPI<Value: Sendable>(_ body: @Sendable (API) async throws -> Value) async throws -> Value {
        let app = PasskeyApplication.build(service: service, logger: logs.logger("passkeys.http"))
        return try await app.test(.live) { client in try await body(API(client: client, server: self)) }
    }
}

/// A response, with its body collected.
struct APIResponse: Sendable, CustomStringConvertible {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    var description: String { "\(status.code) \(text)" }

    func json() throws -> JSONValue { try JSON.decode(JSONValue.self, from: body) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try JSON.decode(type, from: body)
        } catch {
            throw UnexpectedResponse(self, expected: "a \(T.self) body")
        }
    }

    /// The response decoded as `T` when its status is `status`, else an error naming what came instead.
    func expect<T: Decodable>(_ status: HTTPResponse.Status, _ type: T.Type) throws -> T {
        guard self.status == status else { throw UnexpectedResponse(self, expected: "status \(status.code)") }
        return try decode(type)
    }
}

struct UnexpectedResponse: Error, CustomStringConvertible {
    let response: APIResponse
    let expected: String

    init(_ response: APIResponse, expected: String) {
        self.response = response
        self.expected = expected
    }

    var description: String { "expected \(expected), got \(response)" }
}

/// The client side of the tests: the integrator's backend (with the API key) and the app or browser (with a
/// flow's client token), over one `TestClientProtocol`.
struct API: Sendable {
    let client: any TestClientProtocol
    let server: TestServer

    static let requestIDHeader = HTTPField.Name("X-Request-Id")!

    /// Sends one request. `bearer` goes into `Authorization: Bearer …`; `body` is sent with `contentType`.
    func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        bearer: String? = nil,
        body: [UInt8]? = nil,
        contentType: String? = "application/json",
        headers extra: HTTPFields = [:]
    ) async throws -> APIResponse {
        var headers = extra
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        if body != nil, let contentType { headers[.contentType] = contentType }
        return try await client.execute(
            uri: path,
            method: method,
            headers: headers,
            body: body.map { ByteBuffer(bytes: $0) }
        ) { response in
            APIResponse(
                status: response.status,
                headers: response.headers,
                body: Array(response.body.readableBytesView)
            )
        }
    }

    /// A backend API call with the configured API key.
    func backend(_ method: HTTPRequest.Method, _ path: String, json: String? = nil) async throws -> APIResponse {
        try await send(method, path, bearer: TestServer.apiKey, body: json.map { Array($0.utf8) })
    }

    func backend(_ method: HTTPRequest.Method, _ path: String, body: some Encodable) async throws -> APIResponse {
        try await send(method, path, bearer: TestServer.apiKey, body: JSON.encode(body))
    }

    /// A client API call with a flow's client token.
    func client(
        _ method: HTTPRequest.Method,
        _ path: String,
        token: String?,
        json: String? = nil
    ) async throws -> APIResponse {
        try await send(method, path, bearer: token, body: json.map { Array($0.utf8) })
    }

    func client(
        _ method: HTTPRequest.Method,
        _ path: String,
        token: String?,
        body: some Encodable
    ) async throws -> APIResponse {
        try await send(method, path, bearer: token, body: JSON.encode(body))
    }
}
