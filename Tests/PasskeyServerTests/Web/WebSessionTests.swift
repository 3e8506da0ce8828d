import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

/// The pages' session cookie, CSRF protection, security headers and settings.
@Suite("Web sessions and CSRF")
struct WebSessionTests {
    @Test("the session cookie is HttpOnly and SameSite=Lax; Secure when the pages are served over https")
    func cookieAttributes() async throws {
        for (origin, secure) in [("http://localhost:8080", false), ("https://example.com", true)] {
            let server = try TestServer {
                $0.rpId = origin.contains("example") ? "example.com" : "localhost"
                $0.webOrigins = [origin]
            }
            try await server.withAPI { api in
                let web = WebClient(api)
                let page = try await web.get("/")
                #expect(page.status == .ok)
                let cookie = try #require(web.lastSetCookie)
                #expect(cookie.hasPrefix("passkeys_session="))
                #expect(cookie.contains("HttpOnly"))
                #expect(cookie.contains("SameSite=Lax"))
                #expect(cookie.contains("Path=/"))
                #expect(cookie.contains("Secure") == secure, "\(origin): \(cookie)")
                #expect(web.csrfToken?.count == 43)
            }
        }
    }

    @Test("pages forbid inline scripts and framing; assets are served with an ETag")
    func headers() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let page = try await api.send(.get, "/")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("script-src 'self'"))
            #expect(policy.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe-inline"))
            #expect(page.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
            #expect(!page.text.contains("<script>"), "no inline script")
            #expect(!page.text.contains("style=\""), "no inline style")

            let script = try await api.send(.get, "/assets/passkeys.js")
            #expect(script.status == .ok)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            let etag = try #require(script.headers[.eTag])
            let again = try await api.send(.get, "/assets/passkeys.js", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(try await api.send(.get, "/assets/nothing.js").status == .notFound)
        }
    }

    @Test("the pages' script has a message for every error code of the API")
    func messagesForEveryCode() async throws {
        let codes = try OpenAPIDocument.load().errorCodes
        let server = try TestServer()
        try await server.withAPI { api in
            let script = try await api.send(.get, "/assets/passkeys.js").text
            for code in codes {
                #expect(script.contains("\n  \(code): \""), "no message for \(code)")
            }
        }
    }

    @Test("state-changing requests need the session's CSRF token and must not come from another site")
    func csrf() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            try await web.get("/")
            expectError(
                try await web.post("/demo/sign-up", json: #"{"userName": "zoe"}"#, csrf: false),
                "CSRF_TOKEN_INVALID",
                .forbidden
            )
            // With a valid token, from another site: the message says so (not that the token was missing).
            let crossSite = try await web.post(
                "/demo/sign-up",
                json: #"{"userName": "zoe"}"#,
                headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]
            )
            expectError(crossSite, "CSRF_TOKEN_INVALID", .forbidden)
            #expect(crossSite.text.contains("came from another site"))
            #expect(!crossSite.text.contains("did not carry"))
            // Another browser's token does not fit this session.
            let other = WebClient(api)
            try await other.get("/")
            let foreign = try #require(other.csrfToken)
            expectError(
                try await web.post(
                    "/demo/sign-up",
                    json: #"{"userName": "zoe"}"#,
                    csrf: false,
                    headers: [HTTPField.Name("X-CSRF-Token")!: foreign]
                ),
                "CSRF_TOKEN_INVALID",
                .forbidden
            )
            let form = try await web.submit("/sign-out", csrf: false)
            #expect(form.status == .forbidden)
            #expect(form.headers[.contentType] == "text/html; charset=utf-8")
            #expect(try await web.post("/demo/sign-up", json: #"{"userName": "zoe"}"#).status == .created)
        }
    }

    @Test("a tampered, truncated or oversized cookie is a new anonymous session, never an error")
    func forgedCookies() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            var authenticator = TestAuthenticator()
            try await DemoTests.signUp("yann", web, &authenticator)
            #expect(try await web.get("/account").status == .ok)
            let genuine = try #require(web.cookie)
            let value = String(genuine.dropFirst("passkeys_session=".count))
            let parts = value.split(separator: ".")
            let forgedPayload = Array(#"{"id":"x","userID":"someone-else","expiresAt":4102444800}"#.utf8)
            let forgeries = [
                "passkeys_session=\(parts[0]).AAAA",
                "passkeys_session=\(parts[0])",
                "passkeys_session=\(Base64URL.encode(forgedPayload)).\(parts[1])",
                "passkeys_session=" + String(repeating: "A", count: 5000),
                "passkeys_session=%%%.%%%",
            ]
            for forged in forgeries {
                web.setCookie(forged)
                let response = try await web.get("/account")
                #expect(response.status == .seeOther, "\(forged.prefix(60))")
                #expect(response.headers[.location] == "/")
            }
        }
    }

    @Test("a signed-in session ends after web.sessionLifetime")
    func expiry() async throws {
        let server = try TestServer { $0.web.sessionLifetime = 600 }
        try await server.withAPI { api in
            let web = WebClient(api)
            var authenticator = TestAuthenticator()
            try await DemoTests.signUp("uma", web, &authenticator)
            #expect(try await web.get("/account").status == .ok)
            server.clock.advance(by: 601)
            #expect(try await web.get("/account").status == .seeOther)
        }
    }

    @Test("web.demo and web.console switch the pages off")
    func switches() async throws {
        let server = try TestServer {
            $0.web.demo = false
            $0.web.console = false
        }
        try await server.withAPI { api in
            for path in ["/", "/account", "/console", "/assets/passkeys.js"] {
                expectError(try await api.send(.get, path), "NOT_FOUND", .notFound)
            }
        }
    }

    @Test("web settings are validated")
    func validation() throws {
        var short = ServerConfiguration()
        short.web.sessionSecret = "too short"
        #expect(throws: ConfigurationError.self) { try short.validate() }
        var lifetime = ServerConfiguration()
        lifetime.web.sessionLifetime = 10
        #expect(throws: ConfigurationError.self) { try lifetime.validate() }
        let file = try ServerConfiguration(
            jsonData: Data(#"{"web": {"sessionSecret": "0123456789abcdef0123456789abcdef", "console": false}}"#.utf8)
        )
        #expect(file.web.console == false)
        #expect(file.web.demo)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(jsonData: Data(#"{"web": {"demos": true}}"#.utf8))
        }
    }

    @Test("two servers with the same web.sessionSecret accept each other's sessions")
    func sharedSecret() async throws {
        let store = MemoryPasskeyStore()
        let secret = "a shared secret of at least 32 characters"
        let first = try TestServer(store: store) { $0.web.sessionSecret = secret }
        let second = try TestServer(store: store) { $0.web.sessionSecret = secret }
        let third = try TestServer(store: store)
        let cookie = try await first.withAPI { api in
            let web = WebClient(api)
            var authenticator = TestAuthenticator()
            try await DemoTests.signUp("vera", web, &authenticator)
            return try #require(web.cookie)
        }
        for (server, expected) in [(second, HTTPResponse.Status.ok), (third, .seeOther)] {
            let status = try await server.withAPI { api in
                let web = WebClient(api)
                web.setCookie(cookie)
                return try await web.get("/account").status
            }
            #expect(status == expected)
        }
    }
}
