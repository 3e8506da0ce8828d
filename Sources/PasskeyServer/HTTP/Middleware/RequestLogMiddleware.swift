import Hummingbird
import Logging

/// One log line per answered request: its id (from the logger's metadata), method, route template and status —
/// never the path's values, the query, bodies, tokens or keys. (Hummingbird's `LogRequestsMiddleware` logs the
/// full URI, query included, before the status is known.)
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = PasskeyRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response = try await next(request, context)
        context.logger.info(
            "request",
            metadata: [
                "method": "\(request.method)", "route": "\(context.endpointPath ?? "unmatched")",
                "status": "\(response.status.code)",
            ]
        )
        return response
    }
}
