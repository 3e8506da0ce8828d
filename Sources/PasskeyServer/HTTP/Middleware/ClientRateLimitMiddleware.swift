import Hummingbird

/// The per-client-IP request limit of every path a client calls: the client API (`/v1/client/…`), token sessions
/// (`/v1/sessions/…`, whose refresh tokens an app presents), the mobile
/// identity-verification proxy paths (`/biometric-passkey/mobile/…`, which call out to a vendor) and the demo's
/// endpoints (`/demo/…`, which start flows for browsers): `RATE_LIMITED` with `Retry-After` beyond it.
/// ``clientPrefixes`` holds every route that declares ``Route/Access/client`` (a test checks the route table).
struct ClientRateLimitMiddleware: RouterMiddleware {
    typealias Context = PasskeyRequestContext
    let service: PasskeyService

    /// The paths that count against the limit.
    static let clientPrefixes = CrossOriginMiddleware.prefixes + ["/biometric-passkey/mobile/", "/demo/"]

    static func isLimited(_ path: String) -> Bool { clientPrefixes.contains { path.hasPrefix($0) } }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if Self.isLimited(request.uri.path) {
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
