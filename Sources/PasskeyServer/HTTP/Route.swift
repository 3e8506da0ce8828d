import Foundation
public import HTTPTypes
import Hummingbird

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

    init(
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

    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.count <= 4096 else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }
}
