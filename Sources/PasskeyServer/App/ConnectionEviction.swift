import NIOCore
import NIOHTTPTypes
import Synchronization

/// Keeps a slot free at the connection maximum: when a connection takes the last of
/// ``ConnectionLimits/maximumConnections``, the connection that has waited longest without sending a request is
/// closed (a kept-alive connection that has been used is never chosen, nor the newcomer itself).
///
/// Without it, a flood of connections that send nothing fills the maximum, and a real client waits in the listen
/// queue until the request header timeout frees a slot (about `limits.requestHeaderTimeoutSeconds`); with it, the
/// flood's oldest connection goes and the real client is accepted at once. When every open connection has sent a
/// request, nothing is closed, and newcomers wait in the listen queue until one ends, as before.
final class ConnectionEviction: Sendable {
    private struct State {
        var open = 0
        var arrivals: UInt64 = 0
        /// Connections that have sent no request yet, with their order of arrival.
        var waiting: [ObjectIdentifier: (order: UInt64, channel: any Channel)] = [:]
        /// Connections closed here and not yet reported closed: no longer counted as open.
        var evicted: Set<ObjectIdentifier> = []
    }

    let maximum: Int
    private let state = Mutex(State())

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// Counts a new connection, and closes the oldest other one still waiting for its first request if this one took
    /// the last slot.
    func opened(_ channel: any Channel) {
        let newcomer = ObjectIdentifier(channel)
        let victim: (any Channel)? = state.withLock { state in
            state.open += 1
            state.arrivals += 1
            state.waiting[newcomer] = (state.arrivals, channel)
            guard state.open >= maximum,
                let oldest = state.waiting.filter({ $0.key != newcomer }).min(by: { $0.value.order < $1.value.order })
            else { return nil }
            state.waiting[oldest.key] = nil
            state.evicted.insert(oldest.key)
            state.open -= 1
            return oldest.value.channel
        }
        victim?.close(promise: nil)
    }

    /// The connection sent its first request: it is no longer a candidate.
    func requested(_ channel: any Channel) {
        state.withLock { _ = $0.waiting.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func closed(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { state in
            state.waiting[id] = nil
            if state.evicted.remove(id) == nil { state.open -= 1 }
        }
    }
}

/// Reports its connection's life to ``ConnectionEviction``: opened, first request, closed.
final class ConnectionEvictionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let eviction: ConnectionEviction
    private var registered = false
    private var requested = false

    init(_ eviction: ConnectionEviction) {
        self.eviction = eviction
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { register(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        register(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !requested, case .head = unwrapInboundIn(data) {
            requested = true
            eviction.requested(context.channel)
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if registered {
            registered = false
            eviction.closed(context.channel)
        }
        context.fireChannelInactive()
    }

    private func register(_ context: ChannelHandlerContext) {
        guard !registered else { return }
        registered = true
        eviction.opened(context.channel)
    }
}
