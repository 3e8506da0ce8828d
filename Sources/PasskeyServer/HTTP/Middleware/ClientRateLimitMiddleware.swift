import Hummingbird

/// The per-client-IP request limit of the client API (`/v1/client/…`) and of the demo's endpoints (`/demo/…`,
/// which start flows for browsers and so share the limit): `RATE_LIMITED` with `Retry-After` beyond it.
struct ClientRateLimitMiddleware: RouterMiddleware {
    typealias Context = PasskeyRequestContext
    let service: PasskeyService

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        if path.hasPrefix(CrossOriginMiddleware.prefix) || path.hasPrefix("/demo/") {
            if let wait = service.clientRequestLimiter.record(
                "client-requests:" + (context.clientIP ?? "unknown"),
                limit: service.configuration.limits.clientRequestsPerMinute,
                window: 60,
                at: service.now()
            ) {
                throw APIError.rateLimited(retryAfter: wait)
            }
        }
        return try await next(request, context)
    }
}
