/// What an audit event records (its `action`): a stable `flow.event` name, one named constant each, grouped by flow.
/// The catalogue is the list docs/server.md gives (a test keeps them equal); code audits with the constants, so a
/// misspelt action does not compile.
public struct AuditAction: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

extension AuditAction {
    // MARK: Registration (DESIGN §3 flow 1)
    /// The backend created a registration attempt.
    public static let registrationCreated = Self(rawValue: "registration.created")
    /// The client's registration response was verified and its passkey stored.
    public static let registrationCompleted = Self(rawValue: "registration.completed")
    /// A registration response was refused; `details.code` says why.
    public static let registrationFailed = Self(rawValue: "registration.failed")
    /// The backend finalized an explicit-finalize attempt: its passkey is active.
    public static let registrationFinalized = Self(rawValue: "registration.finalized")
    /// The backend aborted an explicit-finalize attempt: its reserved passkey is gone.
    public static let registrationAborted = Self(rawValue: "registration.aborted")
    /// The backend cancelled an attempt before it completed.
    public static let registrationCancelled = Self(rawValue: "registration.cancelled")

    // MARK: Sign-in and step-up (flows 2 and 3)
    /// The backend created a sign-in session (`details.mode`, the step-up's transaction digest).
    public static let authenticationCreated = Self(rawValue: "authentication.created")
    /// The client's assertion was verified; the result waits for its redeem.
    public static let authenticationCompleted = Self(rawValue: "authentication.completed")
    /// An assertion was refused; `details.code` says why.
    public static let authenticationFailed = Self(rawValue: "authentication.failed")
    /// The backend redeemed the result token.
    public static let authenticationRedeemed = Self(rawValue: "authentication.redeemed")
    /// The result was redeemed, but its passkey had been revoked meanwhile: it does not count.
    public static let authenticationVoided = Self(rawValue: "authentication.voided")

    // MARK: Credentials and users
    /// The signature counter went back: the passkey may have been cloned.
    public static let credentialCloneSuspected = Self(rawValue: "credential.clone_suspected")
    /// A passkey was renamed.
    public static let credentialRenamed = Self(rawValue: "credential.renamed")
    /// A passkey was revoked (by the backend, an operator, the account page or a recovery's finalize).
    public static let credentialRevoked = Self(rawValue: "credential.revoked")
    /// A user and everything of theirs were deleted.
    public static let userDeleted = Self(rawValue: "user.deleted")

    // MARK: Handoff (flow 4)
    /// A sign-in session was handed off to a phone.
    public static let handoffCreated = Self(rawValue: "handoff.created")
    /// A phone claimed the handoff (the first claim wins).
    public static let handoffClaimed = Self(rawValue: "handoff.claimed")
    /// The person confirmed the number on the phone.
    public static let handoffConfirmed = Self(rawValue: "handoff.confirmed")
    /// The handoff was rejected: by the person, or after wrong numbers (`details.reason`).
    public static let handoffRejected = Self(rawValue: "handoff.rejected")
    /// The first device called the handoff off.
    public static let handoffCancelled = Self(rawValue: "handoff.cancelled")

    // MARK: Recovery (flow 5)
    /// A recovery attempt was started (by the backend or the console).
    public static let recoveryCreated = Self(rawValue: "recovery.created")
    /// Too many recoveries were started for the user.
    public static let recoveryRateLimited = Self(rawValue: "recovery.rate-limited")
    /// The recovery token was exchanged for the replacement registration.
    public static let recoveryExchanged = Self(rawValue: "recovery.exchanged")
    /// The replacement passkey was registered and reserved.
    public static let recoveryRegistered = Self(rawValue: "recovery.registered")
    /// The replacement passkey was refused; `details.code` and `details.reason` say why.
    public static let recoveryRegistrationFailed = Self(rawValue: "recovery.registration-failed")
    /// The recovery was finalized: the replacement is active, the old passkeys revoked by `recovery.revoke`.
    public static let recoveryFinalized = Self(rawValue: "recovery.finalized")
    /// The recovery was cancelled.
    public static let recoveryCancelled = Self(rawValue: "recovery.cancelled")

    // MARK: Identity verification (DESIGN §5)
    /// A workflow run was started for a flow.
    public static let identityVerificationStarted = Self(rawValue: "identity-verification.started")
    /// A workflow run was decided (by the provider, or the simulated provider's decision).
    public static let identityVerificationDecided = Self(rawValue: "identity-verification.decided")

    // MARK: Web pages
    /// An operator signed in to the console.
    public static let consoleSignedIn = Self(rawValue: "console.signed-in")
    /// A console passkey was enrolled for an operator.
    public static let consolePasskeyEnrolled = Self(rawValue: "console.passkey-enrolled")
    /// Web sessions of a user ended (signed out everywhere, or one session ended by an operator).
    public static let webSessionEnded = Self(rawValue: "web-session.ended")

    // MARK: Webhooks
    /// An operator sent a delivered or failed webhook delivery again (the subject is its `webhook-id`).
    public static let webhookResent = Self(rawValue: "webhook.resent")

    // MARK: Token sessions
    /// A redemption issued a token session (the subject is the session's `sid`).
    public static let sessionIssued = Self(rawValue: "session.issued")
    /// A token session was refreshed: its refresh token rotated, a new access token issued.
    public static let sessionRefreshed = Self(rawValue: "session.refreshed")
    /// A used refresh token was presented again: the whole token session is revoked.
    public static let sessionReuseDetected = Self(rawValue: "session.reuse-detected")
    /// A token session was revoked by its app (`POST /v1/sessions/revoke`).
    public static let sessionRevoked = Self(rawValue: "session.revoked")

    /// Every action, for documentation checks.
    public static let all: [AuditAction] = [
        .registrationCreated, .registrationCompleted, .registrationFailed, .registrationFinalized, .registrationAborted,
        .registrationCancelled,
        .authenticationCreated, .authenticationCompleted, .authenticationFailed, .authenticationRedeemed,
        .authenticationVoided, .credentialCloneSuspected, .credentialRenamed, .credentialRevoked, .userDeleted,
        .handoffCreated, .handoffClaimed, .handoffConfirmed, .handoffRejected, .handoffCancelled, .recoveryCreated,
        .recoveryRateLimited, .recoveryExchanged, .recoveryRegistered, .recoveryRegistrationFailed,
        .recoveryFinalized, .recoveryCancelled, .identityVerificationStarted, .identityVerificationDecided,
        .consoleSignedIn, .consolePasskeyEnrolled, .webSessionEnded, .webhookResent, .sessionIssued, .sessionRefreshed,
        .sessionReuseDetected, .sessionRevoked,
    ]
}
