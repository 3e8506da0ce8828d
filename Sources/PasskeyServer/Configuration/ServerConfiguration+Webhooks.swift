import Foundation

extension ServerConfiguration {
    /// `webhooks`: the endpoints that receive signed events (Standard Webhooks) when passkeys, sign-ins, recoveries
    /// and users change. See docs/server.md, "Webhooks".
    public struct Webhooks: Sendable, Codable, Equatable {
        public var endpoints: [Endpoint] = []
        /// Seconds one attempt may take, the answer included.
        public var timeoutSeconds = 10
        /// Seconds before the first retry; each further one waits twice as long (at most an hour, with jitter), for
        /// 24 hours after the event.
        public var firstRetrySeconds = 5
        /// The most attempts a server process makes at once.
        public var maxConcurrentDeliveries = 8

        public init() {}

        /// One receiver of events.
        public struct Endpoint: Sendable, Codable, Equatable {
            /// How the console and the outbox name the endpoint: 1 to 64 of `a-z 0-9 . _ -`. Its deliveries keep it, so
            /// renaming an endpoint leaves the old name's pending deliveries without a receiver (they fail).
            public var name: String
            /// Where events are posted: https, or http to a loopback address (`localhost`, `127.0.0.1`, `[::1]`).
            public var url: String
            /// The signing secret, `whsec_` and the base64 of 24 to 64 random bytes, as Standard Webhooks defines it.
            public var secret: String
            /// The secret the endpoint had before `secret`, while the receiver moves to the new one: each message is
            /// then signed with both (two signatures in `webhook-signature`). Remove it once the receiver verifies with
            /// the new secret.
            public var previousSecret: String?
            /// The event types the endpoint receives (``WebhookEventType``), or `["*"]` for all of them.
            public var events: [String]

            public init(
                name: String,
                url: String,
                secret: String,
                previousSecret: String? = nil,
                events: [String] = ["*"]
            ) {
                self.name = name
                self.url = url
                self.secret = secret
                self.previousSecret = previousSecret
                self.events = events
            }
        }
    }
}

extension ServerConfiguration.Webhooks {
    func validate(at path: String) throws(ConfigurationError) {
        try requireInRange(timeoutSeconds, 1...60, "\(path).timeoutSeconds", unit: "seconds")
        try requireInRange(firstRetrySeconds, 1...3600, "\(path).firstRetrySeconds", unit: "seconds")
        try requireInRange(maxConcurrentDeliveries, 1...64, "\(path).maxConcurrentDeliveries")
        var names: Set<String> = []
        for (index, endpoint) in endpoints.enumerated() {
            let field = "\(path).endpoints[\(index)]"
            try endpoint.validate(at: field)
            guard names.insert(endpoint.name).inserted else {
                throw ConfigurationError(field: "\(field).name", "'\(endpoint.name)' names another endpoint already")
            }
        }
    }
}

extension ServerConfiguration.Webhooks.Endpoint {
    /// The hosts an endpoint may be reached at over plain http: this machine only.
    static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "::1", "[::1]"]

    func validate(at path: String) throws(ConfigurationError) {
        guard (1...64).contains(name.utf8.count),
            name.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)
            })
        else {
            throw ConfigurationError(field: "\(path).name", "must be 1 to 64 of a-z, 0-9, '.', '_' and '-'")
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty, components.user == nil, components.password == nil,
            components.fragment == nil, url.utf8.count <= 2048
        else {
            throw ConfigurationError(
                field: "\(path).url",
                "must be an absolute URL such as https://example.com/webhooks (no user name, password or fragment)"
            )
        }
        guard scheme == "https" || (scheme == "http" && Self.loopbackHosts.contains(host)) else {
            throw ConfigurationError(
                field: "\(path).url",
                "must use https (http only for localhost and loopback addresses)"
            )
        }
        guard WebhookSigner(secret: secret) != nil else {
            throw ConfigurationError(
                field: "\(path).secret",
                "must be 'whsec_' followed by the base64 of 24 to 64 random bytes (`openssl rand -base64 32`)"
            )
        }
        if let previousSecret {
            guard WebhookSigner(secret: previousSecret) != nil, previousSecret != secret else {
                throw ConfigurationError(
                    field: "\(path).previousSecret",
                    "must be the endpoint's former secret ('whsec_' and the base64 of 24 to 64 bytes), not its secret"
                )
            }
        }
        guard !events.isEmpty else {
            throw ConfigurationError(field: "\(path).events", "must list event types, or \"*\" for all of them")
        }
        for (index, event) in events.enumerated()
        where event != "*" && !WebhookEventType.all.contains(WebhookEventType(rawValue: event)) {
            throw ConfigurationError(
                field: "\(path).events[\(index)]",
                "'\(event)' is not an event type (known: \(WebhookEventType.all.map(\.rawValue).joined(separator: ", ")), or \"*\")"
            )
        }
    }

    /// Whether the endpoint receives events of `type`.
    func receives(_ type: WebhookEventType) -> Bool { events.contains("*") || events.contains(type.rawValue) }
}
