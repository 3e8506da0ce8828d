import Foundation

extension ServerConfiguration {
    /// `identityVerification`: who decides that a person is who they say they are, before a passkey is created or
    /// a step-up is approved (DESIGN §5).
    public struct IdentityVerification: Sendable, Codable, Equatable {
        public enum Provider: String, Sendable, Codable {
            /// No identity verification: asking for it is `INVALID_REQUEST`.
            case disabled
            /// For development, demos and tests: a run waits for a decision posted to the backend API (or
            /// `passkeys idv decide`), or is decided at once by `autoDecision`.
            case simulated
            /// A vendor reached over HTTP: the server creates runs at `webhook.url`, and the vendor reports
            /// decisions to `POST /v1/identity-verification/webhook`, both signed with `webhook.secret`.
            case webhook
        }

        public enum Decision: String, Sendable, Codable { case approved, declined, review }
        /// Whether the face captured matches the person's enrolled identity (recovery).
        public enum FaceMatch: String, Sendable, Codable { case pass, fail }

        public var provider: Provider = .disabled
        /// Simulated only: the decision every new run gets at once (demo mode).
        public var autoDecision: Decision?
        /// How long a run may wait for its decision, in seconds.
        public var runLifetime = 900
        /// The simulated provider verifies nobody, so it starts only for rpId `localhost` (or a `.localhost` name)
        /// unless this says, explicitly, that a server for a real domain (a demo, a staging copy) may use it.
        public var allowSimulatedOutsideLocalhost = false
        public var webhook: Webhook?

        public struct Webhook: Sendable, Codable, Equatable {
            /// Where runs are created (`POST`, https; http only for localhost).
            public var url: String
            /// The secret both directions are signed with (HMAC-SHA256, at least 32 characters).
            public var secret: String

            public init(url: String, secret: String) {
                self.url = url
                self.secret = secret
            }
        }

        public init() {}
    }

    /// `policy.enrollment`: what every registration must have, whatever the backend (or a page) asks for.
    public struct EnrollmentPolicy: Sendable, Codable, Equatable {
        /// Every registration — the backend's, the demo's sign-up and added passkeys, the console's — verifies the
        /// person's identity before its passkey can be created; a request that asks for none is refused.
        public var requireIdentityVerification = false
        public init() {}
    }

    /// `policy.stepUp`: what every step-up sign-in must have, whatever the backend asks for.
    public struct StepUpPolicy: Sendable, Codable, Equatable {
        /// Every step-up names the transaction it approves.
        public var requireTransaction = false
        /// Every step-up verifies the person's identity first.
        public var requireIdentityVerification = false
        public init() {}
    }

}

extension ServerConfiguration.IdentityVerification {
    /// Checks the section at `path`; the simulated provider needs the RP ID to be a localhost name (or the explicit
    /// allowance).
    func validate(at path: String, rpId: String) throws(ConfigurationError) {
        try requireInRange(runLifetime, 60...86_400, "\(path).runLifetime", unit: "seconds")
        if provider == .simulated, !allowSimulatedOutsideLocalhost, rpId != "localhost", !rpId.hasSuffix(".localhost") {
            throw ConfigurationError(
                field: "\(path).provider",
                "is 'simulated', which verifies nobody, but rpId '\(rpId)' is not localhost: use a real provider (webhook), or set identityVerification.allowSimulatedOutsideLocalhost: true for a demo or staging server"
            )
        }
        if allowSimulatedOutsideLocalhost, provider != .simulated {
            throw ConfigurationError(
                field: "\(path).allowSimulatedOutsideLocalhost",
                "is for the simulated provider only"
            )
        }
        if autoDecision != nil, provider != .simulated {
            throw ConfigurationError(field: "\(path).autoDecision", "is for the simulated provider only")
        }
        switch (provider, webhook) {
        case (.webhook, nil):
            throw ConfigurationError(field: "\(path).webhook", "must give url and secret for the webhook provider")
        case (.webhook, let webhook?):
            try ServerConfiguration.validateOrigin(
                Self.webhookOrigin(webhook.url),
                field: "\(path).webhook.url",
                rpId: rpId,
                mustMatchRP: false
            )
            guard webhook.secret.utf8.count >= 32 else {
                throw ConfigurationError(field: "\(path).webhook.secret", "must be at least 32 characters")
            }
        default:
            break
        }
    }

    /// The origin part of a webhook URL (its path is allowed), for the origin checks.
    private static func webhookOrigin(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        return String(url[..<schemeEnd.upperBound]) + String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    }
}
