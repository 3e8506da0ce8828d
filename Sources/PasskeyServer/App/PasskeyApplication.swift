public import Hummingbird
public import Logging
public import ServiceLifecycle

/// Assembles the HTTP application from a ``PasskeyService``: the one builder that `passkeys serve` and the
/// tests share.
public enum PasskeyApplication {
    /// The router with every route and the API middleware (for in-process tests and embedding).
    public static func router(service: PasskeyService) -> Router<PasskeyRequestContext> {
        let router = Router(context: PasskeyRequestContext.self)
        router.add(middleware: APIMiddleware(service: service))
        for route in PasskeyRoutes.all(service) {
            router.on(RouterPath(route.path), method: route.method) { request, context in
                try await route.respond(request, context, service: service)
            }
        }
        WebPages(service: service).register(on: router)
        return router
    }

    /// The application, listening on the configured host and port. `services` run alongside it and shut down
    /// with it (a PostgreSQL client, for example), and so does the ``StorePurge`` of the service's store.
    public static func build(
        service: PasskeyService,
        services: [any Service] = [],
        logger: Logger
    ) -> some ApplicationProtocol {
        Application(
            router: router(service: service),
            configuration: .init(
                address: .hostname(service.configuration.host, port: service.configuration.port),
                serverName: "swift-passkeys"
            ),
            services: services + [StorePurge(service: service)],
            logger: logger
        )
    }
}
