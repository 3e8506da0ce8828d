import HTTPTypes
import Hummingbird

/// `HEAD` is answered as `GET` without the body (the router's generated `HEAD` endpoints) for the pages, their assets
/// and `/health`: a browser's or a monitor's `HEAD` gets the status and headers a `GET` would. The API's own paths
/// (`/v1/…`, `/.well-known/…`, `/metrics`, `/biometric-passkey/…`) answer as their contract says: `HEAD` is not one
/// of their methods (`METHOD_NOT_ALLOWED`).
struct HeadMiddleware: RouterMiddleware {
    typealias Context = PasskeyRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        if request.method == .head, path != "/health", Self.isAPIPath(path) { throw HTTPError(.notFound) }
        return try await next(request, context)
    }

    /// Whether `path` is the API's (answered in JSON, never with a page).
    static func isAPIPath(_ path: String) -> Bool {
        ["/v1/", "/.well-known/", "/biometric-passkey/", "/health/", "/metrics/"].contains(where: path.hasPrefix)
            || path == "/v1" || path == "/health" || path == "/metrics"
    }
}
