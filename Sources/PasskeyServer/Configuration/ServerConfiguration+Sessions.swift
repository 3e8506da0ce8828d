import Foundation

extension ServerConfiguration {
    /// `sessions`: the token sessions a redemption issues when the backend asks for one (`"issueSession": true`): an
    /// ES256 access token and a rotating refresh token. See docs/server.md, "Token sessions".
    public struct Sessions: Sendable, Codable, Equatable {
        /// How long an access token is valid, in seconds.
        public var accessTokenSeconds = 600
        /// How long a refresh token is valid unused, in seconds: each refresh issues a new one with this lifetime.
        public var refreshTokenSeconds = 30 * 86_400
        /// The absolute lifetime of a token session from the sign-in, in seconds: however often it is refreshed, the
        /// user signs in again after this.
        public var maximumSessionSeconds = 90 * 86_400
        /// The tokens' `iss`; by default the first web origin (`https://<rpId>` when there is none).
        public var issuer: String?
        /// The tokens' `aud`; by default the RP ID.
        public var audience: String?

        public init() {}
    }
}

extension ServerConfiguration.Sessions {
    func validate(at path: String) throws(ConfigurationError) {
        try requireInRange(accessTokenSeconds, 60...3600, "\(path).accessTokenSeconds", unit: "seconds")
        try requireInRange(refreshTokenSeconds, 300...(365 * 86_400), "\(path).refreshTokenSeconds", unit: "seconds")
        try requireInRange(
            maximumSessionSeconds,
            refreshTokenSeconds...(365 * 86_400),
            "\(path).maximumSessionSeconds",
            "must be at least sessions.refreshTokenSeconds (\(refreshTokenSeconds)) and at most \(365 * 86_400) seconds"
        )
        for (field, value) in [("issuer", issuer), ("audience", audience)] {
            guard let value else { continue }
            guard (1...256).contains(value.utf8.count),
                value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
            else {
                throw ConfigurationError(
                    field: "\(path).\(field)",
                    "must be 1 to 256 printable ASCII characters without spaces (such as https://example.com)"
                )
            }
        }
    }
}

extension ServerConfiguration {
    /// The access tokens' `iss`: `sessions.issuer`, else the first web origin, else `https://<rpId>`.
    var sessionIssuer: String { sessions.issuer ?? webOrigins.first ?? "https://\(rpId)" }
    /// The access tokens' `aud`: `sessions.audience`, else the RP ID.
    var sessionAudience: String { sessions.audience ?? rpId }
}
