import Hummingbird
import Logging
import Mustache

/// The pages' Mustache templates (swift-mustache), compiled into the server and parsed once at start.
///
/// Every value is escaped by ``HTMLText`` before rendering, and the templates insert it with `{{{value}}}`, which
/// leaves it as it is. Mustache's own escaping (`{{value}}`) is never used: it compares `Character`s, which lets a
/// `<` or `"` joined to a neighbouring combining mark through unescaped.
struct PageTemplates: Sendable {
    private let library: MustacheLibrary
    /// The templates that could not be parsed, with the parser's reason: rendering them answers 500.
    private let unparsed: [String: String]
    /// Where a page that cannot be rendered is reported.
    private let logger: Logger

    static let sources: [String: String] = [
        "layout": layout, "message": message, "demo": demo, "account": account, "confirm-delete": confirmDelete,
        "console-nav": consoleNav, "console-sign-in": consoleSignIn, "console-users": consoleUsers,
        "console-user": consoleUser, "console-audit": consoleAudit, "console-recovery": consoleRecovery,
        "console-sessions": consoleSessions, "console-webhooks": consoleWebhooks,
        "console-webhook-deliveries": consoleWebhookDeliveries,
        "recover": recover, "approve": approve,
    ]

    init(logger: Logger, sources: [String: String] = Self.sources) {
        var library = MustacheLibrary()
        var unparsed: [String: String] = [:]
        for (name, source) in sources {
            // The templates are constants of this module, parsed by a test; should one fail all the same, the
            // server still starts and only that page answers 500, with the reason in the log.
            do {
                try library.register(source, named: name)
            } catch {
                unparsed[name] = "\(error)"
                logger.error("page template cannot be parsed", metadata: ["template": "\(name)", "error": "\(error)"])
            }
        }
        self.library = library
        self.unparsed = unparsed
        self.logger = logger
    }

    /// Renders the template `name` with `values` (plus the layout's own values) into an HTML response; a page that
    /// cannot be rendered answers 500 and is logged, never a blank 200.
    func page(_ name: String, _ values: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        guard unparsed[name] == nil, let html = library.render(HTMLText.escapeValues(values), withTemplate: name)
        else {
            logger.error(
                "page cannot be rendered",
                metadata: [
                    "template": "\(name)",
                    "reason": "\(unparsed[name] ?? "no template of that name is registered")",
                ]
            )
            return Response(
                status: .internalServerError,
                headers: Self.headers,
                body: .init(byteBuffer: .init(string: "The page \(HTMLText.escape(name)) could not be rendered."))
            )
        }
        return Response(
            status: status,
            headers: Self.headers,
            body: .init(byteBuffer: .init(string: html))
        )
    }

    /// No inline script or style may run, the pages cannot be framed, and forms post only to this server.
    static let headers: HTTPFields = [
        .contentType: "text/html; charset=utf-8",
        .contentSecurityPolicy:
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        .init("X-Content-Type-Options")!: "nosniff",
        .init("X-Frame-Options")!: "DENY",
        .init("Referrer-Policy")!: "same-origin",
    ]
}
