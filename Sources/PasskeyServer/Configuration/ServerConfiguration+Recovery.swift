import Foundation
public import PasskeyStorage

extension ServerConfiguration {
    /// `recovery`: account recovery on a new device (DESIGN §3 flow 5). It needs an identity-verification provider:
    /// without one, starting a recovery is refused with `RECOVERY_NOT_SUPPORTED`.
    public struct Recovery: Sendable, Codable, Equatable {
        /// Whether the backend may start recoveries at all.
        public var enabled = true
        /// How long a recovery attempt (and its recovery token) lives, in seconds.
        public var attemptLifetime = 900
        /// Which of the user's other credentials finalizing revokes.
        public var revoke: RecoveryRevocation = .all
        /// How many recoveries may be started for one user within `attemptWindow`; more are `RECOVERY_RATE_LIMITED`.
        /// Counted in the store, so every server process sees the same count.
        public var maxAttemptsPerUser = 3
        /// The window `maxAttemptsPerUser` is counted in, in seconds.
        public var attemptWindow = 86_400

        public init() {}
    }

}

extension ServerConfiguration.Recovery {
    func validate(at path: String) throws(ConfigurationError) {
        try requireInRange(attemptLifetime, 60...86_400, "\(path).attemptLifetime", unit: "seconds")
        try requireInRange(maxAttemptsPerUser, 1...1000, "\(path).maxAttemptsPerUser")
        try requireInRange(attemptWindow, 60...2_592_000, "\(path).attemptWindow", unit: "seconds")
    }
}
