import Crypto
import Foundation
import Hummingbird
import PasskeyStorage
import WebAuthn

/// What a browser's cookie carries for one part of the pages (the demo and account pages, or the operator
/// console): a random secret, and the one flow this browser started and may finish. Who is signed in is never in
/// the cookie: it is a ``WebSessionRecord`` in the store, found by the secret's SHA-256, so that signing out,
/// revoking the passkey or deleting the user ends the session even for a copy of the cookie.
///
/// The cookie is signed (HMAC-SHA256), HttpOnly, SameSite=Lax, and Secure when the pages are served over https.
struct WebSession: Codable, Sendable, Equatable {
    /// Random; the store knows it only hashed, and the CSRF token is derived from it.
    var id: String
    /// The registration or authentication flow this browser started and may finish.
    var pendingFlowID: String?
    /// Seconds since 1970.
    var expiresAt: Int

    static func anonymous(lifetime: Int, now: Date) -> Self {
        WebSession(id: Secrets.token(prefix: ""), expiresAt: Int(now.timeIntervalSince1970) + lifetime)
    }

    /// What the store knows this secret by.
    var secretHash: [UInt8] { Secrets.hash(id) }
}

/// Signs and checks the ``WebSession`` cookie of one part of the pages, and its CSRF tokens. The demo's cookie and
/// the console's are separate, with their own names, paths, lifetimes and signing keys: signing in or out of one
/// never touches the other.
struct WebSessionCookies: Sendable {
    /// Longer cookie values are refused before any decoding.
    static let maximumLength = 2048

    let kind: WebSessionRecord.Kind
    let name: String
    let path: String
    let lifetime: Int
    let secure: Bool
    private let key: SymmetricKey

    init(_ kind: WebSessionRecord.Kind, configuration: ServerConfiguration, secret: SymmetricKey) {
        self.kind = kind
        switch kind {
        case .demo:
            (name, path, lifetime) = ("passkeys_session", "/", configuration.web.sessionLifetime)
        case .console:
            (name, path, lifetime) = (
                "passkeys_console", "/console", min(configuration.web.sessionLifetime, Self.consoleLifetime)
            )
        }
        secure = configuration.webOrigins.first?.hasPrefix("https://") ?? true
        key = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Array(name.utf8), using: secret))
    }

    /// How long a console sign-in lasts, at most.
    static let consoleLifetime = 3600

    /// The key both kinds of cookie derive theirs from: from `web.sessionSecret`, or random for this process.
    static func secret(_ configuration: ServerConfiguration) -> SymmetricKey {
        guard let secret = configuration.web.sessionSecret else { return SymmetricKey(size: .bits256) }
        return SymmetricKey(data: SHA256.hash(data: Array(("passkeys-web-session:" + secret).utf8)))
    }

    /// The request's cookie when its signature holds and it has not expired.
    func session(in request: Request, now: Date) -> WebSession? {
        guard let value = request.cookies[name]?.value, value.utf8.count <= Self.maximumLength else { return nil }
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
        let payload = Array((try? JSONEncoder().encode(session)) ?? Data())
        let signature = HMAC<SHA256>.authenticationCode(for: payload, using: key)
        return Cookie(
            name: name,
            value: Base64URL.encode(payload) + "." + Base64URL.encode(Array(signature)),
            maxAge: max(0, session.expiresAt - Int(now.timeIntervalSince1970)),
            path: path,
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
