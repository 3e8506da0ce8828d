public import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
public import ServiceLifecycle

/// Assembles the HTTP application from a ``PasskeyService``: the one builder that `passkeys serve` and the
/// tests share.
public enum PasskeyApplication {
    /// The router with every route and the middleware (for in-process tests and embedding).
    public static func router(service: PasskeyService) -> Router<PasskeyRequestContext> {
        // HEAD as GET without the body; HeadMiddleware keeps it off the API's paths.
        let router = Router(context: PasskeyRequestContext.self, options: .autoGenerateHeadEndpoints)
        let pages = WebPages(service: service)
        // Outermost first: every answer, errors included, passes the ones above the error middleware.
        router.addMiddleware {
            RequestIDMiddleware()
            NoStoreByDefaultMiddleware()
            RequestMetricsMiddleware(metrics: service.metrics)
            RequestLogMiddleware()
            ClientAddressMiddleware(trustedProxies: service.trustedProxies)
            CrossOriginMiddleware(allowedOrigins: service.corsOrigins)
            ErrorResponseMiddleware(
                routes: KnownRoutes(service: service),
                notFoundPage: pages.isOn ? pages.notFoundPage : nil
            )
            HeadMiddleware()
            ClientRateLimitMiddleware(service: service)
        }
        for route in PasskeyRoutes.all(service) {
            router.on(RouterPath(route.path), method: route.method) { request, context in
                try await route.respond(request, context, service: service)
            }
        }
        pages.register(on: router)
        return router
    }

    /// The application, listening on the configured host and port. `services` run alongside it and shut down
    /// with it (a PostgreSQL client, for example), and so do the ``StorePurge`` and the ``AuditCheckpoints`` of the
    /// service's store and, when webhook endpoints are configured, the ``WebhookDispatcher`` that delivers its outbox.
    ///
    /// Connections are bounded in number (``ConnectionLimits``; ``ConnectionEviction`` keeps a slot free by closing,
    /// at the maximum, the connection that waited longest without a request) and in time: a new connection has
    /// `limits.requestHeaderTimeoutSeconds` to send its first request's headers, a body
    /// `limits.requestBodyTimeoutSeconds` to arrive, and a kept-alive connection may idle for
    /// `limits.idleTimeoutSeconds`.
    /// - Parameter onServerRunning: called once the server listens, with the port it is bound to (the one the system
    ///   chose when the configuration's port is 0), to announce it.
    public static func build(
        service: PasskeyService,
        services: [any Service] = [],
        logger: Logger,
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let limits = service.configuration.limits
        let connections = ConnectionLimits.atStart(configured: limits.maxConnections)
        let soft = connections.softDescriptorLimit.map { String($0) } ?? "unknown"
        let hard = connections.hardDescriptorLimit.map { String($0) } ?? "unknown"
        let metadata: Logger.Metadata = [
            "maxConnections": "\(connections.maximumConnections)",
            "fileDescriptors.soft": "\(soft)",
            "fileDescriptors.hard": "\(hard)",
            "idleTimeoutSeconds": "\(limits.idleTimeoutSeconds)",
            "requestHeaderTimeoutSeconds": "\(limits.requestHeaderTimeoutSeconds)",
            "requestBodyTimeoutSeconds": "\(limits.requestBodyTimeoutSeconds)",
        ]
        logger.info("connection limits", metadata: metadata)
        let headerTimeout = TimeAmount.seconds(Int64(limits.requestHeaderTimeoutSeconds))
        let bodyTimeout = TimeAmount.seconds(Int64(limits.requestBodyTimeoutSeconds))
        let eviction = ConnectionEviction(maximum: connections.maximumConnections)
        return Application(
            router: router(service: service),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [
                        ConnectionEvictionHandler(eviction),
                        RequestReadTimeoutHandler(
                            headerTimeout: headerTimeout,
                            bodyTimeout: bodyTimeout,
                            logger: logger
                        ),
                    ],
                    idleTimeout: .seconds(Int64(limits.idleTimeoutSeconds))
                )
            ),
            configuration: .init(
                address: .hostname(service.configuration.host, port: service.configuration.port),
                serverName: "swift-passkeys",
                availableConnectionsDelegate: MaximumAvailableConnections(
                    connections.maximumConnections,
                    logger: logger
                )
            ),
            services: services + [StorePurge(service: service), AuditCheckpoints(service: service)]
                + (service.configuration.webhooks.endpoints.isEmpty ? [] : [WebhookDispatcher(service: service)]),
            onServerRunning: { channel in
                await onServerRunning(channel.localAddress?.port ?? service.configuration.port)
            },
            logger: logger
        )
    }
}
