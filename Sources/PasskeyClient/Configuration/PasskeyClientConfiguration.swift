public import Foundation

/// What a ``PasskeyClient`` talks to and where it keeps its state, validated when it is made.
///
/// ```swift
/// let configuration = try PasskeyClientConfiguration(
///     rpDomain: "example.com", serverBaseURL: URL(string: "https://passkeys.example.com")!, storage: "com.example.app")
/// ```
public struct PasskeyClientConfiguration: Sendable, Hashable {
    /// The relying party's domain (the RP ID passkeys are bound to), such as `example.com`.
    public let rpDomain: String
    /// The passkey server's base URL. `https`, except for `localhost` and `127.0.0.1` during development.
    public let serverBaseURL: URL
    /// The storage namespace: 1–64 of `A–Z a–z 0–9 . _ -`. It names the SDK's keychain item on Apple platforms
    /// (its account) and the folder the SDK keeps its files in.
    public let storage: String
    /// The keychain access group the SDK's keychain item lives in (Apple platforms), such as
    /// `ABCDE12345.com.example.shared` or `group.com.example.shared`, to share the passkey record with app
    /// extensions; the app needs the Keychain Sharing (or App Groups) entitlement for it. Nil: the app's default
    /// group. ``KeychainKey/load(configuration:)`` and ``PasskeyClientConfiguration/keychainItem`` use it.
    public let keychainAccessGroup: String?
    /// The debug switch: when on, ``PasskeyClient`` logs each step of its flows through swift-log (at `debug`, to
    /// the logger it was given), never a secret — no token, challenge, key, signature or user handle.
    public var debugLogging: Bool
    /// The origin the client reports in `clientDataJSON`. Native iOS apps present `https://<rpDomain>`, the default;
    /// against a development server on this machine (rpDomain `localhost`, server `http://localhost:PORT` or
    /// `http://127.0.0.1:PORT`) the default is that server's own origin, `http://localhost:PORT`, which a
    /// `passkeys serve` started without configuration allows.
    public let origin: String
    /// How long one request to the server may take.
    public let requestTimeout: Duration

    /// - Throws: ``PasskeyError`` with code `INVALID_CONFIGURATION` that names the field and the rule broken.
    public init(
        rpDomain: String,
        serverBaseURL: URL,
        storage: String,
        origin: String? = nil,
        requestTimeout: Duration = .seconds(30),
        keychainAccessGroup: String? = nil,
        debugLogging: Bool = false
    ) throws(PasskeyError) {
        try Self.validateDomain(rpDomain)
        try Self.validateServerURL(serverBaseURL)
        try Self.validateNamespace(storage)
        if let keychainAccessGroup { try Self.validateAccessGroup(keychainAccessGroup) }
        let origin = origin ?? Self.defaultOrigin(rpDomain: rpDomain, serverBaseURL: serverBaseURL)
        try Self.validateOrigin(origin)
        guard requestTimeout > .zero, requestTimeout <= .seconds(600) else {
            throw Self.invalid("requestTimeout", "must be more than 0 and at most 600 seconds")
        }
        self.rpDomain = rpDomain
        self.serverBaseURL = serverBaseURL
        self.storage = storage
        self.origin = origin
        self.requestTimeout = requestTimeout
        self.keychainAccessGroup = keychainAccessGroup
        self.debugLogging = debugLogging
    }

    /// `https://<rpDomain>`, or `http://localhost:PORT` for rpDomain `localhost` and a server on `http://localhost` or
    /// `http://127.0.0.1`.
    static func defaultOrigin(rpDomain: String, serverBaseURL: URL) -> String {
        guard rpDomain == "localhost", serverBaseURL.scheme == "http",
            serverBaseURL.host == "localhost" || serverBaseURL.host == "127.0.0.1"
        else { return "https://\(rpDomain)" }
        return "http://localhost" + (serverBaseURL.port.map { ":\($0)" } ?? "")
    }

    static func invalid(_ field: String, _ rule: String) -> PasskeyError {
        PasskeyError(.invalidConfiguration, "PasskeyClientConfiguration.\(field) \(rule).")
    }
}

extension PasskeyClientConfiguration {
    /// A host name: 1–253 characters of dot-separated labels of 1–63 lower-case letters, digits and inner `-`;
    /// no scheme, port, path or IP address.
    static func validateDomain(_ domain: String) throws(PasskeyError) {
        let field = "rpDomain"
        guard !domain.isEmpty else { throw invalid(field, "is empty; use the bare domain, such as 'example.com'") }
        guard domain.utf8.count <= 253 else { throw invalid(field, "is longer than 253 characters") }
        guard !domain.contains("://"), !domain.contains("/"), !domain.contains(":") else {
            throw invalid(
                field,
                "'\(domain)' must be a host name alone, without scheme, port or path (such as 'example.com')"
            )
        }
        guard domain == domain.lowercased() else {
            throw invalid(
                field,
                "'\(domain)' must be lower case (RP IDs are compared exactly): use '\(domain.lowercased())'"
            )
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.utf8.count) else {
                throw invalid(field, "'\(domain)' has an empty label or one longer than 63 characters")
            }
            guard label.utf8.allSatisfy({ $0.isLowerASCIILetterOrDigit || $0 == UInt8(ascii: "-") }) else {
                throw invalid(
                    field,
                    "'\(domain)' may hold only letters, digits, '-' and '.' (use the punycode form of international names)"
                )
            }
            guard label.first != "-", label.last != "-" else {
                throw invalid(field, "'\(domain)' has a label that starts or ends with '-'")
            }
        }
        guard !labels.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }) else {
            throw invalid(field, "'\(domain)' is an IP address; passkeys need a domain name")
        }
    }

    /// `https://host[:port][/path]`, or `http` for `localhost` and `127.0.0.1`; no user, query or fragment.
    static func validateServerURL(_ url: URL) throws(PasskeyError) {
        let field = "serverBaseURL"
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else {
            throw invalid(
                field,
                "'\(url.absoluteString)' is not an absolute URL with a host, such as 'https://passkeys.example.com'"
            )
        }
        let local = ["localhost", "127.0.0.1"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && local) else {
            throw invalid(
                field,
                "'\(url.absoluteString)' must use https (http is allowed only for localhost and 127.0.0.1 during development)"
            )
        }
        guard components.user == nil, components.password == nil else {
            throw invalid(field, "must not carry a user name or password")
        }
        guard components.query == nil, components.fragment == nil else {
            throw invalid(field, "must not have a query or fragment")
        }
    }

    /// 1–64 of `A–Z a–z 0–9 . _ -`.
    static func validateNamespace(_ namespace: String) throws(PasskeyError) {
        guard (1...64).contains(namespace.utf8.count),
            namespace.utf8.allSatisfy({
                $0.isASCIILetterOrDigit || [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")].contains($0)
            })
        else {
            throw invalid(
                "storage",
                "'\(namespace)' must be 1 to 64 of A–Z, a–z, 0–9, '.', '_' and '-' (such as 'com.example.app')"
            )
        }
        guard namespace != ".", namespace != ".." else { throw invalid("storage", "must not be '.' or '..'") }
    }

    /// A keychain access group: `<Team ID>.<identifier>` or `group.<identifier>`, 3–128 of `A–Z a–z 0–9 . -`,
    /// with a dot between two non-empty parts.
    static func validateAccessGroup(_ group: String) throws(PasskeyError) {
        let parts = group.split(separator: ".", omittingEmptySubsequences: false)
        guard (3...128).contains(group.utf8.count), parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }),
            group.utf8.allSatisfy({ $0.isASCIILetterOrDigit || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") })
        else {
            throw invalid(
                "keychainAccessGroup",
                "'\(group)' must be a keychain access group such as 'ABCDE12345.com.example.shared' or 'group.com.example.shared' (letters, digits, '.' and '-')"
            )
        }
    }

    /// `https://host[:port]`, `http://localhost[:port]` or `http://127.0.0.1[:port]`, or an Android app origin.
    static func validateOrigin(_ origin: String) throws(PasskeyError) {
        if origin.hasPrefix("android:apk-key-hash:"), origin.count > "android:apk-key-hash:".count { return }
        guard let components = URLComponents(string: origin), let scheme = components.scheme,
            let host = components.host, !host.isEmpty,
            components.path.isEmpty, components.query == nil, components.fragment == nil, components.user == nil
        else {
            throw invalid("origin", "'\(origin)' is not an origin such as 'https://example.com'")
        }
        guard scheme == "https" || (scheme == "http" && ["localhost", "127.0.0.1"].contains(host)) else {
            throw invalid("origin", "'\(origin)' must use https (http is allowed only for localhost)")
        }
    }
}

extension UInt8 {
    var isLowerASCIILetterOrDigit: Bool { (0x61...0x7A).contains(self) || (0x30...0x39).contains(self) }
    var isASCIILetterOrDigit: Bool { isLowerASCIILetterOrDigit || (0x41...0x5A).contains(self) }
}
