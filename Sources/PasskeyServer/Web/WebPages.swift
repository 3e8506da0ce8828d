import Foundation
import Hummingbird

/// The web pages the server serves beside its API: the demo (`/`), the account page (`/account`) and the
/// operator console (`/console`), each enabled by the configuration's `web` settings.
///
/// The demo is its own integrator: its endpoints under `/demo/` run on the server, call the flows in-process and
/// keep the result in a signed session cookie, so no API key ever reaches the browser. The browser calls the
/// client API with the flow's client token, as any app would. Every state-changing request carries the session's
/// CSRF token (a form field or the `X-CSRF-Token` header) and is refused from other sites.
struct WebPages: Sendable {
    let service: PasskeyService
    let cookies: WebSessionCookies
    let templates = PageTemplates()

    init(service: PasskeyService) {
        self.service = service
        self.cookies = WebSessionCookies(configuration: service.configuration)
    }

    func register(on router: Router<PasskeyRequestContext>) {
        let web = service.configuration.web
        guard web.demo || web.console else { return }
        router.get("/assets/{name}") { request, context in
            WebAssets.response(name: context.parameters.get("name") ?? "", ifNoneMatch: request.headers[.ifNoneMatch])
        }
        if web.demo {
            registerDemo(on: router)
            registerAccount(on: router)
        }
        if web.console { registerConsole(on: router) }
    }

    /// A page: errors render as an HTML message page.
    func page(
        _ request: Request,
        _ context: PasskeyRequestContext,
        _ body: (inout WebCall) async throws(APIError) -> Response
    ) async throws -> Response {
        do {
            return try await endpoint(request, context, body)
        } catch let error as APIError {
            if error == .signInRequired {
                return Self.redirect(request.uri.path.hasPrefix("/console") ? "/console" : "/")
            }
            return templates.page(
                "message",
                layoutValues(nil) + [
                    "heading": error.status.code >= 500 ? "Something went wrong" : "That did not work",
                    "text": error.message, "backURL": "/", "backLabel": "Back to the start",
                ],
                status: error.status
            )
        }
    }

    /// An endpoint the pages' scripts call: errors go out as the API's JSON error body. Loads the session (or
    /// starts one), checks the CSRF token of a POST, and sets the cookie when the session changed.
    func endpoint(
        _ request: Request,
        _ context: PasskeyRequestContext,
        _ body: (inout WebCall) async throws(APIError) -> Response
    ) async throws -> Response {
        let now = service.now()
        let existing = cookies.session(in: request, now: now)
        let session = existing ?? .anonymous(lifetime: cookies.lifetime, now: now)
        var form: [String: String] = [:]
        if request.method == .post {
            if request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true {
                let buffer = try await request.body.collect(upTo: WebCall.formLimit)
                form = WebCall.parseForm(String(buffer: buffer))
            }
            let presented = request.headers[.init("X-CSRF-Token")!] ?? form["csrfToken"]
            guard request.headers[.init("Sec-Fetch-Site")!] != "cross-site", let existing,
                cookies.isValidCSRFToken(presented, for: existing)
            else { throw APIError.csrfTokenInvalid }
        }
        var call = WebCall(
            request: request,
            context: context,
            session: session,
            csrfToken: cookies.csrfToken(for: session),
            form: form,
            now: now
        )
        var response = try await body(&call)
        if call.session != existing { response.setCookie(cookies.cookie(for: call.session, now: now)) }
        return response
    }

    /// What every page's layout shows.
    func layoutValues(_ call: WebCall?) -> [String: Any] {
        [
            "csrfToken": call?.csrfToken ?? "", "rpName": service.configuration.rpName,
            "rpId": service.configuration.rpId,
        ]
    }

    /// `303 See Other`: after a form post, the browser loads `location` with GET.
    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}

extension Dictionary where Key == String, Value == Any {
    /// A template's values: `rhs` over `lhs`, leaving out the absent ones (Mustache would show `nil`).
    static func + (lhs: Self, rhs: [String: Any?]) -> Self {
        lhs.merging(rhs.compactMapValues { $0 }) { _, new in new }
    }
}
