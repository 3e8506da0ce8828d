import Foundation
public import HTTPTypes
import Hummingbird
import PasskeyStorage

/// One endpoint of the HTTP API: method, path (OpenAPI-style `{parameter}`s), who may call it, and its handler.
/// The route table (``PasskeyRoutes``) is the single list the router and the OpenAPI coverage test both use.
public struct Route: Sendable {
    public enum Access: String, Sendable {
        /// The integrator's backend, with an API key.
        case backend
        /// An app or browser, with the flow's client token.
        case client
        case open
    }

    public let method: HTTPRequest.Method
    public let path: String
    public let access: Access
    /// What a backend route's API key must grant (``APIScope``); nil for the other routes.
    public let scope: APIScope?
    let handler: @Sendable (Request, PasskeyRequestContext, RouteCall) async throws -> Response

    /// Private: a route is made by the constructor of its access (``backend(_:_:_:)``, ``open(_:_:_:)``, or one of the
    /// client constructors that resolve the client's credential first), so no client handler runs unresolved.
    private init(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ access: Access,
        scope: APIScope? = nil,
        _ handler: @escaping @Sendable (Request, PasskeyRequestContext, RouteCall) async throws -> Response
    ) {
        self.method = method
        self.path = path
        self.access = access
        self.scope = scope
        self.handler = handler
    }
}

/// What a handler receives besides the request: the authenticated caller, the bearer token, path parameters.
struct RouteCall: Sendable {
    let caller: Caller
    let bearerToken: String?
    let parameters: Parameters
    let bodyLimit: Int

    func parameter(_ name: String) throws(APIError) -> String {
        guard let value = parameters.get(name), !value.isEmpty, value.utf8.count <= 2048 else {
            throw APIError.invalidRequest("The path parameter '\(name)' is missing.")
        }
        return value
    }

    func body<T: Decodable>(_ type: T.Type, _ request: Request) async throws(APIError) -> T {
        try await JSONBody.decode(type, from: request, limit: bodyLimit)
    }

    /// The body, or `empty` when the request has none.
    func body<T: Decodable>(_ type: T.Type, _ request: Request, empty: T) async throws(APIError) -> T {
        var request = request
        do {
            // Collected once, and kept as the request's body for the decoding.
            guard try await request.collectBody(upTo: bodyLimit).readableBytes > 0 else { return empty }
        } catch {
            throw APIError.payloadTooLarge(bodyLimit)
        }
        return try await body(type, request)
    }
}

extension Route {
    /// Authenticates the call as the route's access level requires, then runs the handler. A backend route's key must
    /// grant the route's scope: the one place scopes are checked.
    func respond(_ request: Request, _ context: PasskeyRequestContext, service: PasskeyService) async throws -> Response
    {
        let bearer = Self.bearerToken(request)
        let caller: Caller
        switch access {
        case .backend:
            guard let bearer, let key = service.apiKey(for: bearer) else { throw APIError.unauthenticated }
            // A backend route always names its scope; were one to lack it, only a key with every scope would pass.
            let needed = scope ?? .all
            guard key.grants(needed) else { throw APIError.insufficientScope(needed, keyName: key.name) }
            caller = Caller(actor: "api-key:\(key.name)", requestID: context.requestID, clientIP: context.clientIP)
        case .client:
            guard bearer != nil else { throw APIError.unauthenticated }
            caller = Caller(actor: "client", requestID: context.requestID, clientIP: context.clientIP)
        case .open:
            caller = Caller(actor: "public", requestID: context.requestID, clientIP: context.clientIP)
        }
        let call = RouteCall(
            caller: caller,
            bearerToken: bearer,
            parameters: context.parameters,
            bodyLimit: service.configuration.limits.maxRequestBodyBytes
        )
        // Every backend POST creates or settles something: each may be made idempotent with an Idempotency-Key.
        guard access == .backend, request.method == .post else { return try await handler(request, context, call) }
        return try await service.idempotentRequests.respond(request, caller: caller, bodyLimit: call.bodyLimit) {
            try await handler($0, context, call)
        }
    }

    /// A backend route: its caller is the API key's name, and the key must grant `scope` (``respond(_:_:service:)``
    /// refuses anything else).
    static func backend(
        _ method: HTTPRequest.Method,
        _ path: String,
        scope: APIScope,
        _ handler: @escaping @Sendable (Request, PasskeyRequestContext, RouteCall) async throws -> Response
    ) -> Route {
        Route(method, path, .backend, scope: scope, handler)
    }

    /// An open route: no credential, or one in its body that its flow checks (a handoff token, a recovery token).
    static func open(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ handler: @escaping @Sendable (Request, PasskeyRequestContext, RouteCall) async throws -> Response
    ) -> Route {
        Route(method, path, .open, handler)
    }

    /// A client route: the credential its caller presents is resolved by `access` (``ClientAuthorization``) before
    /// the handler runs, and what it authorizes — a flow, a handoff, a recovery attempt — is handed to the handler.
    static func client<Record: Sendable>(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ access: ClientAccess<Record>,
        _ handler: @escaping @Sendable (Request, RouteCall, Record) async throws -> Response
    ) -> Route {
        Route(method, path, .client) { request, _, call in
            try await handler(request, call, try await access.resolve(call))
        }
    }

    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.count <= 4096 else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }
}

/// How a client route resolves its caller's bearer token to what it may drive.
struct ClientAccess<Record: Sendable>: Sendable {
    let resolve: @Sendable (RouteCall) async throws(APIError) -> Record
}

extension ClientAccess where Record == FlowRecord {
    /// The flow of `kind` named by the path parameter `id`, driven by its client token.
    static func flow(_ kind: FlowKind, id: String, _ authorization: ClientAuthorization) -> Self {
        Self { call throws(APIError) in
            try await authorization.flow(id: try call.parameter(id), token: call.bearerToken, kind: kind)
        }
    }
}

extension ClientAccess where Record == CrossPlatformSessionRecord {
    /// The handoff of the path, driven by the phone (its claim's client token) or followed by the first device (its
    /// poll token).
    static func handoff(_ side: ClientAuthorization.HandoffSide, _ authorization: ClientAuthorization) -> Self {
        Self { call throws(APIError) in
            try await authorization.handoff(
                id: try call.parameter("crossPlatformSessionId"),
                token: call.bearerToken,
                side: side
            )
        }
    }
}

extension ClientAccess where Record == RecoveryAttemptRecord {
    /// The recovery attempt of the path, with its recovery token as bearer.
    static func recoveryDevice(_ authorization: ClientAuthorization) -> Self {
        Self { call throws(APIError) in
            try await authorization.recoveryAttempt(
                id: try call.parameter("recoveryAttemptId"),
                token: call.bearerToken
            )
        }
    }
}
