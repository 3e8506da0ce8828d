import Hummingbird
import Mustache

/// The pages' Mustache templates (swift-mustache), compiled into the server and parsed once at start.
///
/// Every value is escaped by ``HTMLText`` before rendering, and the templates insert it with `{{{value}}}`, which
/// leaves it as it is. Mustache's own escaping (`{{value}}`) is never used: it compares `Character`s, which lets a
/// `<` or `"` joined to a neighbouring combining mark through unescaped.
struct PageTemplates: Sendable {
    private let library: MustacheLibrary

    static let sources: [String: String] = [
        "layout": layout, "message": message, "demo": demo, "account": account, "confirm-delete": confirmDelete,
        "console-nav": consoleNav, "console-sign-in": consoleSignIn, "console-users": consoleUsers,
        "console-user": consoleUser, "console-audit": consoleAudit,
    ]

    init() {
        var library = MustacheLibrary()
        for (name, source) in Self.sources {
            // The templates are constants of this module, parsed by a test; a parse failure is a programming error.
            try! library.register(source, named: name)
        }
        self.library = library
    }

    /// Renders the template `name` with `values` (plus the layout's own values) into an HTML response.
    func page(_ name: String, _ values: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        guard let html = library.render(HTMLText.escapeValues(values), withTemplate: name) else {
            // Only a template that names a partial missing from `sources` fails; never a blank page.
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
