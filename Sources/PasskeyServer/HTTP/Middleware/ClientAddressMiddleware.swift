import HTTPTypes
import Hummingbird

/// Resolves the client's IP: the connection's peer, or `X-Forwarded-For`'s hop before the trusted proxies.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = PasskeyRequestContext
    let trustedProxies: TrustedProxies

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.clientIP = trustedProxies.clientAddress(
            peer: context.remoteAddress?.ipAddress,
            forwardedFor: request.headers[values: .init("X-Forwarded-For")!]
        )
        return try await next(request, context)
    }
}
