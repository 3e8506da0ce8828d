import Hummingbird

/// Counts every request and times it, by route template, method and status, in the server's own metrics
/// (``ServerMetrics``, served at `/metrics`). Hummingbird's `MetricsMiddleware` reports to the process-wide
/// swift-metrics backend under its own names, so it does not give these.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = PasskeyRequestContext
    let metrics: ServerMetrics

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        metrics.request(
            route: context.endpointPath ?? "unmatched",
            method: request.method.rawValue,
            status: response.status.code,
            duration: ContinuousClock.now - start
        )
        return response
    }
}
