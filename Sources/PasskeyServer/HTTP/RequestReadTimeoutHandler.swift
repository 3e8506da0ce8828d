import Logging
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow to send a request: the first request's head must arrive within
/// `headerTimeout` of connecting, and every request's body must arrive in full within `bodyTimeout` of its head.
///
/// A client that connects and sends nothing, sends its headers a byte at a time, or declares a body longer than
/// it sends would otherwise hold a connection (and a file descriptor) for as long as it likes. Between requests
/// on a kept-alive connection, Hummingbird's idle timeout (`limits.idleTimeoutSeconds`) applies instead.
final class RequestReadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let headerTimeout: TimeAmount
    private let bodyTimeout: TimeAmount
    private let logger: Logger
    private var deadline: Scheduled<Void>?
    private var sawFirstHead = false

    init(headerTimeout: TimeAmount, bodyTimeout: TimeAmount, logger: Logger) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { waitForFirstHead(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        waitForFirstHead(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            sawFirstHead = true
            schedule(context, after: bodyTimeout, "the request's body did not arrive in time")
        case .body:
            break
        case .end:
            cancel()
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    private func waitForFirstHead(_ context: ChannelHandlerContext) {
        guard !sawFirstHead, deadline == nil else { return }
        schedule(context, after: headerTimeout, "no request headers arrived in time")
    }

    private func schedule(_ context: ChannelHandlerContext, after delay: TimeAmount, _ reason: String) {
        cancel()
        let logger = logger
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [weak self] in
            self?.deadline = nil
            logger.debug("closing a slow connection", metadata: ["reason": "\(reason)"])
            context.close(promise: nil)
        }
    }

    private func cancel() {
        deadline?.cancel()
        deadline = nil
    }
}

@available(*, unavailable)
extension RequestReadTimeoutHandler: Sendable {}
