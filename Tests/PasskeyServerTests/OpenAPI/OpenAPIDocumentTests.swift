import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PasskeyServer
import PasskeyStorage
import Testing

/// Keeps `docs/openapi.yaml` true to the server: the document lists exactly the routes of `PasskeyRoutes`, with
/// their access, every documented route answers in-process, what it answers is documented, and every error code
/// of `APIError.all` is in the document's `ErrorCode` enum (and no other).
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    static let apiKey = "openapi-test-key-0123456789abcdef"
    /// A value for every path parameter: a well-formed user id, flow id and base64url credential id that exist
    /// nowhere.
    static let probe = "AAAAAAAAAAAAAAAAAAAAAA"

    /// Quiet: the requests these tests make are expected to fail, and their logs would only be noise.
    static let logger: Logger = {
        var logger = Logger(label: "openapi-tests")
        logger.logLevel = .critical
        return logger
    }()

    static func makeService() throws -> PasskeyService {
        var configuration = ServerConfiguration()
        configuration.apiKeys = [.init(name: "openapi-test", key: apiKey)]
        return try PasskeyService(configuration: configuration, store: MemoryPasskeyStore(), logger: logger)
    }

    static func routeTable() throws -> [(label: String, access: Route.Access)] {
        try PasskeyRoutes.table(makeService()).map { ("\($0.method.rawValue) \($0.path)", $0.access) }
    }

    @Test("The document lists exactly the routes of the route table")
    func routesMatchTheTable() throws {
        let document = try OpenAPIDocument.load()
        let documented = document.operations.map(\.label)
        let served = try Self.routeTable().map(\.label)
        #expect(Set(documented).count == documented.count, "an operation is listed twice")
        for route in Set(served).subtracting(documented).sorted() {
            Issue.record("\(route) is served but not in docs/openapi.yaml")
        }
        for route in Set(documented).subtracting(served).sorted() {
            Issue.record("\(route) is in docs/openapi.yaml but not served")
        }
        #expect(!documented.isEmpty)
    }

    @Test("Each operation's security is its route's access level")
    func securityMatchesAccess() throws {
        let document = try OpenAPIDocument.load()
        let table = try Self.routeTable()
        let access = Dictionary(table.map { ($0.label, $0.access) }) { first, _ in first }
        for operation in document.operations {
            guard let routeAccess = access[operation.label] else { continue }
            let expected: Set<OpenAPIDocument.Security> =
                switch routeAccess {
                case .backend: [.apiKey]
                case .client: [.clientToken, .pollToken]
                case .open: [.open]
                }
            #expect(
                operation.security.map(expected.contains) == true,
                "\(operation.label): security should be one of \(expected)"
            )
        }
    }

    @Test("Each backend operation's security names its route's API key scope, and no other operation names one")
    func scopesMatchTheRoutes() throws {
        let document = try OpenAPIDocument.load()
        let table = try PasskeyRoutes.table(Self.makeService())
        let scopes = Dictionary(table.map { ("\($0.method.rawValue) \($0.path)", $0.scope) }) { first, _ in first }
        for operation in document.operations {
            guard let scope = scopes[operation.label] else { continue }
            #expect(
                operation.scopes == (scope.map { [$0.rawValue] } ?? []),
                "\(operation.label): the document names \(operation.scopes), the route needs \(scope?.rawValue ?? "none")"
            )
        }
    }

    /// `Route.respond` checks the key's scope on every backend route and keeps the answer of every backend `POST`
    /// under its `Idempotency-Key`: each operation must say so, or a client (and the contract fuzzing) meets an
    /// undocumented 403 or 422.
    @Test("Each backend operation documents the scope refusal, and each backend POST the Idempotency-Key")
    func backendRulesAreDocumented() throws {
        let document = try OpenAPIDocument.load()
        for operation in document.operations where operation.security == .apiKey {
            #expect(
                operation.responses["403"]?.contains("INSUFFICIENT_SCOPE") == true,
                "\(operation.label): no 403 INSUFFICIENT_SCOPE"
            )
            guard operation.method == "POST" else { continue }
            #expect(
                operation.parameters.contains("#/components/parameters/IdempotencyKey"),
                "\(operation.label): no Idempotency-Key parameter"
            )
            #expect(
                operation.responses["422"]?.contains("IDEMPOTENT_REPLAY") == true,
                "\(operation.label): no 422 IDEMPOTENT_REPLAY"
            )
        }
    }

    @Test("Every documented route answers, with a documented status and error code")
    func everyDocumentedRouteAnswers() async throws {
        let document = try OpenAPIDocument.load()
        let service = try Self.makeService()
        let app = Application(router: PasskeyApplication.router(service: service), logger: Self.logger)
        try await app.test(.router) { client in
            for operation in document.operations {
                var headers: HTTPFields = [:]
                switch operation.security {
                case .apiKey: headers[.authorization] = "Bearer \(Self.apiKey)"
                case .clientToken: headers[.authorization] = "Bearer pkc_openapi-probe"
                case .pollToken: headers[.authorization] = "Bearer pkp_openapi-probe"
                case .open, nil: break
                }
                let response: TestResponse = try await client.execute(
                    uri: Self.uri(operation.path),
                    method: try #require(HTTPRequest.Method(operation.method)),
                    headers: headers,
                    body: ByteBuffer()
                )
                try Self.check(response, of: operation, in: document)
            }
        }
    }

    @Test("Secured routes refuse a call without a token, as documented")
    func securedRoutesNeedAToken() async throws {
        let document = try OpenAPIDocument.load()
        let service = try Self.makeService()
        let app = Application(router: PasskeyApplication.router(service: service), logger: Self.logger)
        try await app.test(.router) { client in
            for operation in document.operations where operation.security != .open {
                let response: TestResponse = try await client.execute(
                    uri: Self.uri(operation.path),
                    method: try #require(HTTPRequest.Method(operation.method)),
                    body: ByteBuffer()
                )
                #expect(response.status == .unauthorized, "\(operation.label) without a token: \(response.status)")
                try Self.check(response, of: operation, in: document)
            }
        }
    }

    @Test("The webhooks section documents every event type the server sends, each with the members it requires")
    func webhookEventTypesAreDocumented() throws {
        let document = try OpenAPIDocument.load()
        let sent = WebhookEventType.all.map(\.rawValue)
        #expect(document.webhookEventTypes == sent)
        #expect(document.webhookEventVariants == sent)
    }

    /// The document's rule for requests ("an optional member sent as `null` counts as left out"), which the contract
    /// fuzzing holds the server to: a member that does not say so is one a client's `null` would wrongly be refused
    /// for, or one the server reads as left out against its schema (as abort's `reason` and finalize's token were).
    @Test("Every optional member of a request body allows null")
    func optionalRequestMembersAllowNull() throws {
        #expect(try OpenAPIDocument.load().optionalRequestMembersWithoutNull == [])
    }

    @Test("The ErrorCode enum lists exactly the codes of APIError.all")
    func errorCodesAreDocumented() throws {
        let document = try OpenAPIDocument.load()
        let produced = Set(APIError.all.map(\.rawValue))
        #expect(produced.count == APIError.all.count, "APIError.all lists a code twice")
        for code in produced { #expect(Self.isErrorCode(code[...]), "\(code) is not an UPPER_SNAKE code") }
        #expect(Set(document.errorCodes).count == document.errorCodes.count, "ErrorCode lists a code twice")
        for code in produced.subtracting(document.errorCodes).sorted() {
            Issue.record("\(code) is in APIError.all but missing from ErrorCode in docs/openapi.yaml")
        }
        for code in Set(document.errorCodes).subtracting(produced).sorted() {
            Issue.record("\(code) is in ErrorCode in docs/openapi.yaml but not in APIError.all")
        }
    }

    // MARK: Helpers

    /// The path with every `{parameter}` replaced by ``probe``.
    static func uri(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("{") && $0.hasSuffix("}") ? probe : String($0) }
            .joined(separator: "/")
    }

    struct ErrorBody: Decodable {
        struct Detail: Decodable {
            let code: String
            let message: String
            let retryable: Bool
            let requestId: String
        }
        let error: Detail
    }

    /// Checks that the route exists, sent its request id, answered a status the document lists for it, and (for an
    /// error) an error body whose code is in `ErrorCode` and named in the document's response for that status.
    static func check(
        _ response: TestResponse,
        of operation: OpenAPIDocument.Operation,
        in document: OpenAPIDocument
    ) throws {
        let label = operation.label
        let requestID = response.headers[try #require(HTTPField.Name("X-Request-Id"))]
        #expect(requestID != nil, "\(label): no X-Request-Id header")
        let status = String(response.status.code)
        guard response.status.code >= 400 else {
            #expect(operation.responses[status] != nil, "\(label) answered \(status), which the document does not list")
            return
        }
        let body = try JSONDecoder().decode(ErrorBody.self, from: Data(response.body.readableBytesView))
        let error = body.error
        #expect(
            !(error.code == "NOT_FOUND" && error.message.hasPrefix("No such endpoint")),
            "\(label) is documented but the server has no such endpoint"
        )
        #expect(error.requestId == requestID, "\(label): the error's requestId is not the X-Request-Id header")
        #expect(
            document.errorCodes.contains(error.code),
            "\(label) answered \(error.code), which ErrorCode does not list"
        )
        guard let documented = document.responseText(operation, status: status) else {
            Issue.record("\(label) answered \(status) \(error.code), and the document lists no \(status) for it")
            return
        }
        #expect(documented.contains("`\(error.code)`"), "\(label): its \(status) response does not name \(error.code)")
    }

    static func isErrorCode(_ text: Substring) -> Bool {
        text.count >= 3 && text.first?.isUppercase == true && text.last != "_"
            && text.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
