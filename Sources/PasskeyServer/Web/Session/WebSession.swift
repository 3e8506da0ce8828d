import Crypto
import Foundation
import Hummingbird
import WebAuthn

/// What the web pages remember about one browser, kept in a cookie that the server signs (HMAC-SHA256): who is
/// signed in to the demo, which operator to the console, and the one flow this browser may finish. The cookie is
/// HttpOnly, SameSite=Lax, and Secure when the pages are served over https.
struct WebSession: Codable, Sendable, Equatable {
    /// Random; the CSRF token is derived from it.
    var id: String
    /// The demo user signed in, with their user name.
    var userID: String?
    var userName: String?
    /// The operator signed in to the console (the name of the API key they presented).
    var operatorName: String?
    /// The registration or authentication flow this browser started and may finish.
    var pendingFlowID: String?
    /// Seconds since 1970.
    var expiresAt: Int

    static func anonymous(lifetime: Int, now: Date) -> Self {
        WebSession(id: Secrets.identifier(prefix: ""), expiresAt: Int(now.timeIntervalSince1970) + lifetime)
    }
}

/// Signs and checks ``WebSession`` cookies and their CSRF tokens.
struct WebSessionCookies: Sendable {
    static let name = "passkeys_session"
    /// Longer cookie values are refused before any decoding.
    static let maximumLength = 2048

    private let key: SymmetricKey
    let secure: Bool
    let lifetime: Int

    init(configuration: ServerConfiguration) {
        if let secret = configuration.web.sessionSecret {
            key = SymmetricKey(data: SHA256.hash(data: Array(("passkeys-web-session:" + secret).utf8)))
        } else {
            key = SymmetricKey(size: .bits256)
        }
        secure = configuration.webOrigins.first?.hasPrefix("https://") ?? true
        lifetime = configuration.web.sessionLifetime
    }

    /// The request's session when its signature holds and it has not expired.
    func session(in request: Request, now: Date) -> WebSession? {
        guard let value = request.cookies[Self.name]?.value, value.utf8.count <= Self.maximumLength else { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = try? Base64URL.decode(parts[0]),
            let signature = try? Base64URL.decode(parts[1]),
            HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: payload, using: key),
            let session = try? JSONDecoder().decode(WebSession.self, from: Data(payload)),
            session.expiresAt > Int(now.timeIntervalSince1970)
        else { return nil }
        return session
    }

    /// The `Set-Cookie` for `session`.
    func cookie(for session: WebSession, now: Date) -> Cookie {
        // Encoding a struct of strings and integers cannot fail.
        let payload = Array(try! JSONEncoder().encode(session))
        let signature = HMAC<SHA256>.authenticationCode(for: payload, using: key)
        return Cookie(
            name: Self.name,
            value: Base64URL.encode(payload) + "." + Base64URL.encode(Array(signature)),
            maxAge: max(0, session.expiresAt - Int(now.timeIntervalSince1970)),
            path: "/",
            secure: secure,
            httpOnly: true,
            sameSite: .lax
        )
    }

    /// The CSRF token of a session: pages put it in forms and in a meta tag for their scripts.
    func csrfToken(for session: WebSession) -> String {
        Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: Array(("csrf:" + session.id).utf8), using: key)))
    }

    func isValidCSRFToken(_ presented: String?, for session: WebSession) -> Bool {
        guard let presented else { return false }
        return Secrets.constantTimeEqual(Array(presented.utf8), Array(csrfToken(for: session).utf8))
    }
}
