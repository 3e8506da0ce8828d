/// A cookie as the browser stores it, with the flags a test checks.
public struct Cookie: Sendable, Hashable {
    public let name: String
    public let value: String
    public let domain: String
    public let path: String
    public let httpOnly: Bool
    public let secure: Bool
    /// `Strict`, `Lax` or `None`; nil when the cookie did not say.
    public let sameSite: String?
    /// Seconds since 1970 when it expires, or nil for a session cookie.
    public let expires: Double?

    init(_ json: JSON) {
        name = json["name"]?.string ?? ""
        value = json["value"]?.string ?? ""
        domain = json["domain"]?.string ?? ""
        path = json["path"]?.string ?? ""
        httpOnly = json["httpOnly"]?.bool ?? false
        secure = json["secure"]?.bool ?? false
        sameSite = json["sameSite"]?.string
        expires = json["session"]?.bool == true ? nil : json["expires"]?.double
    }
}
