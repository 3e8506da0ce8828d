public import Hummingbird
public import NIOCore

/// The request context of every route: Hummingbird's core storage, the client's address and our request id.
public struct PasskeyRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// Set by ``RequestIDMiddleware`` for every request; echoed in `X-Request-Id` and in error bodies.
    public var requestID = ""
    /// Set by ``ClientAddressMiddleware``. The client's IP: the connection's, or `X-Forwarded-For`'s first hop when configured to trust it.
    public var clientIP: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
