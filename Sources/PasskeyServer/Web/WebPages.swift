import Foundation
import Hummingbird
import NIOCore
import PasskeyStorage

/// The web pages the server serves beside its API: the demo (`/`), the account page (`/account`) and the
/// operator console (`/console`), each enabled by the configuration's `web` settings.
///
/// The demo is its own integrator: its endpoints under `/demo/` run on the server, call the flows in-process and
/// keep who signed in as a session in the store, named by a secret in a signed cookie, so no API key ever reaches
/// the browser. The browser calls the
/// client API with the flow's client token, as any app would. Every state-changing request carries the session's
/// CSRF token (a form field or the `X-CSRF-Token` header) and is refused from other sites.
struct WebPages: Sendable {
    let service: PasskeyService
    /// The demo's and account pages' cookie, and the console's.
    let demoCookies: WebSessionCookies
    let consoleCookies: WebSessionCookies
    let templates: PageTemplates

    init(service: PasskeyService) {
        self.service = service
        self.templates = PageTemplates(logger: service.logger)
        let secret = WebSessionCookies.secret(service.configuration)
        self.demoCookies = WebSessionCookies(.demo, configuration: service.configuration, secret: secret)
        self.consoleCookies = WebSessionCookies(.console, configuration: service.configuration, secret: secret)
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
            registerStepUpDemo(on: router)
            registerPhoneSignIn(on: router)
        }
        if web.console {
            registerConsole(on: router)
            registerConsolePasskeys(on: router)
            registerConsoleSessions(on: router)
            registerConsoleWebhooks(on: router)
            registerRecovery(on: router)
        }
    }

    /// Whether any page is served (the demo or the console).
    var isOn: Bool { service.configuration.web.demo || service.configuration.web.console }

    /// The page for an address that names no page (a mistyped URL): a 404 in HTML, with the way back.
    @Sendable func notFoundPage() -> Response {
        templates.page(
            "message",
            layoutValues(nil) + [
                "heading": "Page not found",
                "text": "There is no page at this address. Check the address, or start again from the demo.",
                "code": APIError.Code.notFound.rawValue, "backURL": "/", "backLabel": "Back to the start",
            ],
            status: .notFound
        )
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
            var response = templates.page(
                "message",
                layoutValues(nil) + [
                    "heading": error.status.code >= 500 ? "Something went wrong" : "That did not work",
                    "text": error.message, "code": error.code.rawValue, "backURL": "/",
                    "backLabel": "Back to the start",
                ],
                status: error.status
            )
            // The error's own headers (`Retry-After` of a 429 or 503) go out with its page, as with the API's JSON.
            for field in error.headers { response.headers.append(field) }
            return response
        }
    }

    /// An endpoint the pages' scripts call: errors go out as the API's JSON error body. Loads the cookie of the
    /// console (under `/console`) or of the demo (or starts one) and the signed-in session it names, checks the CSRF
    /// token of a POST, and sets the cookie when it changed.
    func endpoint(
        _ request: Request,
        _ context: PasskeyRequestContext,
        _ body: (inout WebCall) async throws(APIError) -> Response
    ) async throws -> Response {
        let now = service.now()
        let cookies = request.uri.path.hasPrefix("/console") ? consoleCookies : demoCookies
        let existing = cookies.session(in: request, now: now)
        let session = existing ?? .anonymous(lifetime: cookies.lifetime, now: now)
        let signedIn = try await existing.asyncFlatMap { existing throws(APIError) in
            try await service.webSessions.session(secretHash: existing.secretHash, at: now)
        }
        var form: [String: String] = [:]
        if request.method == .post {
            if request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true {
                let buffer: ByteBuffer
                do {
                    buffer = try await request.body.collect(upTo: WebCall.formLimit)
                } catch {
                    // Read before the CSRF check: a body over the limit is the sender's fault, never a 500.
                    throw APIError.payloadTooLarge(WebCall.formLimit)
                }
                form = WebCall.parseForm(String(buffer: buffer))
            }
            let presented = request.headers[.init("X-CSRF-Token")!] ?? form["csrfToken"]
            guard request.headers[.init("Sec-Fetch-Site")!] != "cross-site" else { throw APIError.crossSiteRequest }
            guard let existing, cookies.isValidCSRFToken(presented, for: existing) else {
                throw APIError.csrfTokenInvalid
            }
        }
        var call = WebCall(
            request: request,
            context: context,
            cookies: cookies,
            session: session,
            signedIn: signedIn.flatMap { $0.kind == cookies.kind && holds($0) ? $0 : nil },
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

extension Optional {
    /// `flatMap` with an async, typed-throwing transform.
    fileprivate func asyncFlatMap<Other>(
        _ transform: (Wrapped) async throws(APIError) -> Other?
    ) async throws(APIError) -> Other? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
