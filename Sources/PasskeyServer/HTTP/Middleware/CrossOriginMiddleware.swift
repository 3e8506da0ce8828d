import HTTPTypes
import Hummingbird

/// CORS for the client API (`/v1/client/…`) and token sessions (`/v1/sessions/…`), which the relying party's own
/// pages call, maybe from another origin
/// than this server's: allowed for the configured web and related origins only, never for the backend API or the
/// pages. A preflight (`OPTIONS`) is answered 204 here.
///
/// Not Hummingbird's `CORSMiddleware`: that one applies to every route, exposes headers on preflights only (so a
/// page could not read `X-Request-Id` or `Retry-After` of an answer), and answers a preflight's allowed methods
/// and headers to any origin.
struct CrossOriginMiddleware: RouterMiddleware {
    typealias Context = PasskeyRequestContext
    static let prefix = "/v1/client/"
    /// The paths it applies to: the client API and token sessions.
    static let prefixes = [prefix, "/v1/sessions/"]
    let allowedOrigins: Set<String>

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard Self.prefixes.contains(where: { path.hasPrefix($0) }) else { return try await next(request, context) }
        var response =
            request.method == .options ? Response(status: .noContent) : try await next(request, context)
        guard let origin = request.headers[.origin], allowedOrigins.contains(origin) else { return response }
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.vary] = "Origin"
        response.headers[.accessControlExposeHeaders] = "X-Request-Id, Retry-After"
        if request.method == .options {
            response.headers[.accessControlAllowMethods] = "POST, GET, OPTIONS"
            response.headers[.accessControlAllowHeaders] = "Authorization, Content-Type, X-Request-Id"
            response.headers[.accessControlMaxAge] = "600"
        }
        return response
    }
}
