import HTTPTypes

extension APIError.Code {
    /// The sign-in session was handed off already; one handoff per session.
    public static let handoffAlreadyCreated = Self(rawValue: "HANDOFF_ALREADY_CREATED")
    /// The session's options were issued already; create the handoff right after the session.
    public static let handoffTooLate = Self(rawValue: "HANDOFF_TOO_LATE")
    /// No handoff has this token.
    public static let handoffTokenInvalid = Self(rawValue: "HANDOFF_TOKEN_INVALID")
    /// Another device claimed the handoff first; only the first claim counts.
    public static let handoffAlreadyClaimed = Self(rawValue: "HANDOFF_ALREADY_CLAIMED")
    /// The handoff can no longer be claimed (`expiries.handoff`), or its session has expired.
    public static let handoffExpired = Self(rawValue: "HANDOFF_EXPIRED")
    /// Not the number the first device shows; the message says how many tries are left (`crossDevice.codeAttempts`), or
    /// that the handoff is now rejected.
    public static let handoffCodeMismatch = Self(rawValue: "HANDOFF_CODE_MISMATCH")
    /// The phone has not confirmed the number yet: no options, no identity verification, no sign-in until it does.
    public static let handoffNotConfirmed = Self(rawValue: "HANDOFF_NOT_CONFIRMED")
    /// The handoff was rejected, by the person or after wrong numbers; nothing can be approved or redeemed.
    public static let handoffRejected = Self(rawValue: "HANDOFF_REJECTED")
    /// The phone approved the handoff already; it can no longer be rejected or cancelled.
    public static let handoffAlreadyApproved = Self(rawValue: "HANDOFF_ALREADY_APPROVED")
    /// No link to put in the QR code: set `crossDevice.linkBase`, or a web origin for the server's `/approve` page.
    public static let handoffNotAvailable = Self(rawValue: "HANDOFF_NOT_AVAILABLE")
    /// The first device cancelled the handoff (`…/cancel`); the phone can no longer claim, confirm, reject or sign it,
    /// and it is never redeemed.
    public static let handoffCancelled = Self(rawValue: "HANDOFF_CANCELLED")
}

/// The codes of the handoff (DESIGN §3 flow 4, cross-device approval): a session handed off to the phone that holds the passkey.
extension APIError {
    static let handoff: [Code] = [
        .handoffAlreadyCreated, .handoffTooLate, .handoffTokenInvalid, .handoffAlreadyClaimed, .handoffExpired,
        .handoffCodeMismatch, .handoffNotConfirmed, .handoffRejected, .handoffAlreadyApproved, .handoffNotAvailable,
        .handoffCancelled,
    ]
    static let handoffAlreadyCreated = Self(
        .handoffAlreadyCreated,
        .conflict,
        "This sign-in session was handed off already; each session has one handoff. Start a new session for another."
    )
    static let handoffTooLate = Self(
        .handoffTooLate,
        .conflict,
        "This sign-in session's options were issued already: create the handoff right after the session, before any device asks for options."
    )
    static let handoffTokenInvalid = Self(
        .handoffTokenInvalid,
        .notFound,
        "No handoff has this token: scan the QR code again, or ask for a new one on the other device."
    )
    static let handoffAlreadyClaimed = Self(
        .handoffAlreadyClaimed,
        .conflict,
        "Another device opened this handoff first; only the first may approve it. Ask for a new QR code if that was not you."
    )
    static let handoffExpired = Self(
        .handoffExpired,
        .gone,
        "This handoff has expired; ask for a new QR code on the other device."
    )
    static func handoffCodeMismatch(attemptsLeft: Int) -> Self {
        Self(
            .handoffCodeMismatch,
            .badRequest,
            attemptsLeft > 0
                ? "That is not the number shown on the other device; check it and try again (\(attemptsLeft) more \(attemptsLeft == 1 ? "try" : "tries"))."
                : "That is not the number shown on the other device, for the last time: the handoff is rejected. Start again on the other device."
        )
    }
    static let handoffNotConfirmed = Self(
        .handoffNotConfirmed,
        .conflict,
        "Confirm the number shown on the other device first: POST /v1/client/cross-platform/{crossPlatformSessionId}/confirm."
    )
    static let handoffRejected = Self(
        .handoffRejected,
        .conflict,
        "This handoff was rejected (on the phone, or after wrong numbers); nothing can be approved with it. Start again on the other device."
    )
    static let handoffAlreadyApproved = Self(
        .handoffAlreadyApproved,
        .conflict,
        "This handoff was approved already; it can no longer be rejected. Sign out on the other device if that was not you."
    )
    static let handoffCancelTooLate = Self(
        .handoffAlreadyApproved,
        .conflict,
        "This handoff was approved on the phone already; it can no longer be cancelled. Sign out if the sign-in was not wanted."
    )
    static let handoffCancelled = Self(
        .handoffCancelled,
        .gone,
        "This sign-in was cancelled on the device that started it; nothing can be approved with it. Start again on that device if you still want to sign in."
    )
    /// The `Retry-After` of ``eventStreamRefused(_:_:)``, in seconds: a stream whose client went away is noticed at
    /// its next heartbeat, at most this long after.
    static let eventStreamRetryAfterSeconds = 15
    /// A handoff status stream past one of its limits, named; the client polls the status instead.
    static func eventStreamRefused(_ limit: EventStreamGate.Limit, _ limits: ServerConfiguration.Limits) -> Self {
        let (scope, value) =
            switch limit {
            case .perHandoff: ("for this handoff", limits.maxEventStreamsPerHandoff)
            case .perClient: ("from this address", limits.maxEventStreamsPerClient)
            case .total: ("on this server", limits.maxEventStreams)
            }
        return Self(
            .rateLimited,
            .tooManyRequests,
            "Too many status streams are open \(scope) (limits.\(limit.rawValue), \(value)). Poll GET /v1/client/cross-platform/{crossPlatformSessionId}/status every few seconds instead, or open the stream again after \(eventStreamRetryAfterSeconds) seconds.",
            retryable: true,
            headers: [.retryAfter: "\(eventStreamRetryAfterSeconds)"]
        )
    }
    static let handoffNotAvailable = Self(
        .handoffNotAvailable,
        .badRequest,
        "This server has no page or link for the handoff: set crossDevice.linkBase (or a web origin, for the server's own /approve page)."
    )
}
