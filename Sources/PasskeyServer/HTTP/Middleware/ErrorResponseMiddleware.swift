import HTTPTypes
import Hummingbird
import Logging

/// Turns every error into the JSON error body (DESIGN §3), never a bare 500: an ``APIError`` as it is, Hummingbird's
/// own `HTTPError`s as their codes (an unknown path `NOT_FOUND`, a known path asked with another method
/// `METHOD_NOT_ALLOWED` with `Allow`), anything else `INTERNAL_ERROR`, logged by its type only.
struct ErrorResponseMiddleware: RouterMiddleware {
    typealias Context = PasskeyRequestContext
    let routes: KnownRoutes
    /// The HTML page for an unknown page path (a person's mistyped address); API paths keep the JSON error.
    /// (Nil with the pages off: every unknown path is then answered in JSON.)
    let notFoundPage: (@Sendable () -> Response)?

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPError {
            let allowed = error.status == .notFound ? routes.allowedMethods(for: request.uri.path) : []
            if error.status == .notFound, allowed.isEmpty, let notFoundPage,
                !HeadMiddleware.isAPIPath(request.uri.path)
            {
                return notFoundPage()
            }
            let answer = allowed.isEmpty ? Self.apiError(for: error) : Self.methodNotAllowed(allowed)
            return try answer.response(from: request, context: context)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return try APIError.unexpected.response(from: request, context: context)
        }
    }

    static func methodNotAllowed(_ allowed: [HTTPRequest.Method]) -> APIError {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return APIError(
            .methodNotAllowed,
            .methodNotAllowed,
            "This endpoint accepts \(list) only.",
            headers: [.allow: list]
        )
    }

    static func apiError(for error: HTTPError) -> APIError {
        switch error.status {
        case .notFound: APIError.notFound("No such endpoint; see the API reference (docs/openapi.yaml).")
        case .contentTooLarge: APIError(.payloadTooLarge, .contentTooLarge, "The request body is too large.")
        default:
            APIError(
                error.status.code >= 500 ? .internalError : .invalidRequest,
                error.status,
                error.body ?? error.status.reasonPhrase
            )
        }
    }
}
