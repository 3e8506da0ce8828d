/// What a webhook event says happened (its `type`): one named constant each. The catalogue is the list docs/server.md
/// gives (a test keeps them equal); endpoints subscribe to these names (`webhooks.endpoints[].events`).
public struct WebhookEventType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

extension WebhookEventType {
    /// A passkey became active: registered (or finalized), or a recovery's replacement.
    public static let passkeyRegistered = Self(rawValue: "passkey.registered")
    public static let passkeyRevoked = Self(rawValue: "passkey.revoked")
    public static let passkeyRenamed = Self(rawValue: "passkey.renamed")
    /// A standard sign-in's assertion was verified.
    public static let signInCompleted = Self(rawValue: "sign_in.completed")
    /// A passkey's signature counter went back (a clone may exist); `data.signInRefused` says whether it was refused.
    public static let signInCloneSuspected = Self(rawValue: "sign_in.clone_suspected")
    /// A step-up's assertion was verified, with its transaction digest and assurance.
    public static let stepUpCompleted = Self(rawValue: "step_up.completed")
    public static let identityVerificationDecided = Self(rawValue: "identity_verification.decided")
    public static let recoveryStarted = Self(rawValue: "recovery.started")
    public static let recoveryFinalized = Self(rawValue: "recovery.finalized")
    public static let userDeleted = Self(rawValue: "user.deleted")
    /// A handed-off sign-in was approved on the phone (its assertion verified).
    public static let handoffApproved = Self(rawValue: "handoff.approved")
    public static let handoffRejected = Self(rawValue: "handoff.rejected")
    /// A token session's spent refresh token was presented again: the session is revoked (someone may hold a copy).
    public static let sessionReuseDetected = Self(rawValue: "session.reuse_detected")

    /// Every event type, for configuration checks and documentation.
    public static let all: [WebhookEventType] = [
        .passkeyRegistered, .passkeyRevoked, .passkeyRenamed, .signInCompleted, .signInCloneSuspected,
        .stepUpCompleted, .identityVerificationDecided, .recoveryStarted, .recoveryFinalized, .userDeleted,
        .handoffApproved, .handoffRejected, .sessionReuseDetected,
    ]
}
