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
    let handler: @Sendable (Request, PasskeyRequestContext, RouteCall) async throws -> Response

    /// Private: a route is made by the constructor of its access (``backend(_:_:_:)``, ``open(_:_:_:)``, or one of the
    /// client constructors that resolve the client's credential first), so no client handler runs unresolved.
    private init(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ access: Access,
        _ handler: @escaping @Sendable (Request, PasskeyRequestContext, RouteCall) async throws -> Response
    ) {
        self.method = method
        self.path = path
        self.access = access
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
}

extension Route {
    /// Authenticates the call as the route's access level requires, then runs the handler.
    func respond(_ request: Request, _ context: PasskeyRequestContext, service: PasskeyService) async throws -> Response
    {
        let bearer = Self.bearerToken(request)
        let caller: Caller
        switch access {
        case .backend:
            guard let bearer, let name = service.apiKeyName(for: bearer) else { throw APIError.unauthenticated }
            caller = Caller(actor: "api-key:\(name)", requestID: context.requestID, clientIP: context.clientIP)
        case .client:
            guard bearer != nil else { throw APIError.unauthenticated }
            caller = Caller(actor: "client", requestID: context.requestID, clientIP: context.clientIP)
        case .open:
            caller = Caller(actor: "public", requestID: context.requestID, clientIP: context.clientIP)
        }
        return try await handler(
            request,
            context,
            RouteCall(
                caller: caller,
                bearerToken: bearer,
                parameters: context.parameters,
                bodyLimit: service.configuration.limits.maxRequestBodyBytes
            )
        )
    }

    /// A backend route: its caller is the API key's name (``respond(_:_:service:)`` refuses anything else).
    static func backend(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ handler: @escaping @Sendable (Request, PasskeyRequestContext, RouteCall) async throws -> Response
    ) -> Route {
        Route(method, path, .backend, handler)
    }

    /// An open route: no credential, or one in its body that its flow checks (a handoff token, a recovery token).
    static func open(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ handler: @escaping @Sendable (Request, PasskeyRequestContext, RouteCall) async throws -> Response
    ) -> Route {
        Route(method, path, .open, handler)
    }

    /// A client route that drives one flow of `kind`, named by the path parameter `id`: the flow its bearer token
    /// authorizes (``ClientAuthorization/flow(id:token:kind:)``) is resolved before the handler runs, and handed to it.
    static func flow(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ kind: FlowKind,
        id: String,
        _ authorization: ClientAuthorization,
        _ handler: @escaping @Sendable (Request, RouteCall, FlowRecord) async throws -> Response
    ) -> Route {
        Route(method, path, .client) { request, _, call in
            let flow = try await authorization.flow(id: try call.parameter(id), token: call.bearerToken, kind: kind)
            return try await handler(request, call, flow)
        }
    }

    /// A client route of the phone in a handoff: the handoff its client token (from the claim) drives is resolved
    /// first.
    static func phone(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ authorization: ClientAuthorization,
        _ handler: @escaping @Sendable (Request, RouteCall, CrossPlatformSessionRecord) async throws -> Response
    ) -> Route {
        Route(method, path, .client) { request, _, call in
            let session = try await authorization.handoffForPhone(
                id: try call.parameter("crossPlatformSessionId"),
                token: call.bearerToken
            )
            return try await handler(request, call, session)
        }
    }

    /// A client route of the first device in a handoff: the handoff its poll token follows is resolved first.
    static func firstDevice(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ authorization: ClientAuthorization,
        _ handler: @escaping @Sendable (Request, RouteCall, CrossPlatformSessionRecord) async throws -> Response
    ) -> Route {
        Route(method, path, .client) { request, _, call in
            let session = try await authorization.handoffForFirstDevice(
                id: try call.parameter("crossPlatformSessionId"),
                token: call.bearerToken
            )
            return try await handler(request, call, session)
        }
    }

    /// A client route of a recovery's new device with the recovery token as bearer: the attempt is resolved first.
    static func recoveryDevice(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ authorization: ClientAuthorization,
        _ handler: @escaping @Sendable (Request, RouteCall, RecoveryAttemptRecord) async throws -> Response
    ) -> Route {
        Route(method, path, .client) { request, _, call in
            let attempt = try await authorization.recoveryAttempt(
                id: try call.parameter("recoveryAttemptId"),
                token: call.bearerToken
            )
            return try await handler(request, call, attempt)
        }
    }

    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.count <= 4096 else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }
}
