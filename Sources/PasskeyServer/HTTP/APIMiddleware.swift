import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Wraps every request: assigns the request id, resolves the client IP, applies the client API rate limit,
/// turns every error into the JSON error body (never a bare 500), and records metrics. Logs carry the request
/// id, method, route and status — never bodies, tokens or keys.
struct APIMiddleware: RouterMiddleware {
    typealias Context = PasskeyRequestContext
    let service: PasskeyService
    /// Every route's method and path segments, to tell an unknown path (404) from a known one asked with
    /// another method (405).
    private let routes: [(method: HTTPRequest.Method, segments: [Substring])]

    init(service: PasskeyService) {
        self.service = service
        self.routes = PasskeyRoutes.table(service).map { ($0.method, $0.path.split(separator: "/")) }
    }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.requestID = Self.requestID(from: request)
        context.clientIP = clientIP(request, context)
        context.logger[metadataKey: "request_id"] = .string(context.requestID)
        let start = ContinuousClock.now
        var response: Response
        let isClientAPI = request.uri.path.hasPrefix("/v1/client/")
        do {
            if isClientAPI, request.method == .options {
                response = Response(status: .noContent)
            } else {
                // The demo's endpoints start flows for browsers, so they share the client API's limit.
                if isClientAPI || request.uri.path.hasPrefix("/demo/") { try applyClientRateLimit(context) }
                response = try await next(request, context)
            }
        } catch let error as APIError {
            response = error.response(requestID: context.requestID)
        } catch let error as HTTPError {
            let allowed = error.status == .notFound ? allowedMethods(for: request.uri.path) : []
            response = (allowed.isEmpty ? Self.apiError(for: error) : Self.methodNotAllowed(allowed)).response(
                requestID: context.requestID
            )
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            response = APIError.unexpected.response(requestID: context.requestID)
        }
        if isClientAPI { allowCrossOrigin(request, &response) }
        response.headers[.init("X-Request-Id")!] = context.requestID
        response.headers[.cacheControl] = response.headers[.cacheControl] ?? "no-store"
        let route = context.endpointPath ?? "unmatched"
        service.metrics.request(
            route: route,
            method: request.method.rawValue,
            status: response.status.code,
            duration: ContinuousClock.now - start
        )
        context.logger.info(
            "request",
            metadata: ["method": "\(request.method)", "route": "\(route)", "status": "\(response.status.code)"]
        )
        return response
    }

    /// The client API is called from the relying party's own pages, which may be on another origin than this
    /// server: CORS is allowed for the configured web and related origins only (never for the backend API).
    private func allowCrossOrigin(_ request: Request, _ response: inout Response) {
        guard let origin = request.headers[.origin], service.corsOrigins.contains(origin) else { return }
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.vary] = "Origin"
        response.headers[.accessControlExposeHeaders] = "X-Request-Id, Retry-After"
        if request.method == .options {
            response.headers[.accessControlAllowMethods] = "POST, GET, OPTIONS"
            response.headers[.accessControlAllowHeaders] = "Authorization, Content-Type, X-Request-Id"
            response.headers[.accessControlMaxAge] = "600"
        }
    }

    private func applyClientRateLimit(_ context: Context) throws(APIError) {
        let key = "client-requests:" + (context.clientIP ?? "unknown")
        if let wait = service.clientRequestLimiter.record(
            key,
            limit: service.configuration.limits.clientRequestsPerMinute,
            window: 60,
            at: service.now()
        ) {
            throw APIError.rateLimited(retryAfter: wait)
        }
    }

    private func clientIP(_ request: Request, _ context: Context) -> String? {
        service.trustedProxies.clientAddress(
            peer: context.remoteAddress?.ipAddress,
            forwardedFor: request.headers[values: .init("X-Forwarded-For")!]
        )
    }

    private func allowedMethods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        return routes.filter { route in
            route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { template, actual in
                    template.hasPrefix("{") || template == actual
                }
        }.map(\.method)
    }

    static func methodNotAllowed(_ allowed: [HTTPRequest.Method]) -> APIError {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return APIError(
            "METHOD_NOT_ALLOWED",
            .methodNotAllowed,
            "This endpoint accepts \(list) only.",
            headers: [.allow: list]
        )
    }

    /// A caller's `X-Request-Id` is kept when it is short and plain; otherwise a new id is made.
    static func requestID(from request: Request) -> String {
        if let given = request.headers[.init("X-Request-Id")!], (1...64).contains(given.utf8.count),
            given.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == 0x2D || $0 == 0x5F })
        {
            return given
        }
        return Secrets.identifier(prefix: "req_")
    }

    static func apiError(for error: HTTPError) -> APIError {
        switch error.status {
        case .notFound: APIError.notFound("No such endpoint; see the API reference (docs/openapi.yaml).")
        case .contentTooLarge: APIError("PAYLOAD_TOO_LARGE", .contentTooLarge, "The request body is too large.")
        default:
            APIError(
                error.status.code >= 500 ? "INTERNAL_ERROR" : "INVALID_REQUEST",
                error.status,
                error.body ?? error.status.reasonPhrase
            )
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
