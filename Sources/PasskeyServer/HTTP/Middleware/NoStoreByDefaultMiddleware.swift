import HTTPTypes
import Hummingbird

/// Every answer is `Cache-Control: no-store` unless its route chose otherwise (the pages' static assets do).
struct NoStoreByDefaultMiddleware: RouterMiddleware {
    typealias Context = PasskeyRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.cacheControl] = response.headers[.cacheControl] ?? "no-store"
        return response
    }
}
