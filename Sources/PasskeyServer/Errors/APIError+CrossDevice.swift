import HTTPTypes

/// The codes of cross-device approval (DESIGN §3 flow 4): a session handed off to the phone that holds the passkey.
extension APIError {
    static let crossDevice: [Code] = [
        "HANDOFF_ALREADY_CREATED", "HANDOFF_TOO_LATE", "HANDOFF_TOKEN_INVALID", "HANDOFF_ALREADY_CLAIMED",
        "HANDOFF_EXPIRED", "HANDOFF_CODE_MISMATCH", "HANDOFF_NOT_CONFIRMED", "HANDOFF_REJECTED",
        "HANDOFF_ALREADY_APPROVED", "HANDOFF_NOT_AVAILABLE", "HANDOFF_CANCELLED",
    ]
    static let handoffAlreadyCreated = Self(
        "HANDOFF_ALREADY_CREATED",
        .conflict,
        "This sign-in session was handed off already; each session has one handoff. Start a new session for another."
    )
    static let handoffTooLate = Self(
        "HANDOFF_TOO_LATE",
        .conflict,
        "This sign-in session's options were issued already: create the handoff right after the session, before any device asks for options."
    )
    static let handoffTokenInvalid = Self(
        "HANDOFF_TOKEN_INVALID",
        .notFound,
        "No handoff has this token: scan the QR code again, or ask for a new one on the other device."
    )
    static let handoffAlreadyClaimed = Self(
        "HANDOFF_ALREADY_CLAIMED",
        .conflict,
        "Another device opened this handoff first; only the first may approve it. Ask for a new QR code if that was not you."
    )
    static let handoffExpired = Self(
        "HANDOFF_EXPIRED",
        .gone,
        "This handoff has expired; ask for a new QR code on the other device."
    )
    static func handoffCodeMismatch(attemptsLeft: Int) -> Self {
        Self(
            "HANDOFF_CODE_MISMATCH",
            .badRequest,
            attemptsLeft > 0
                ? "That is not the number shown on the other device; check it and try again (\(attemptsLeft) more \(attemptsLeft == 1 ? "try" : "tries"))."
                : "That is not the number shown on the other device, for the last time: the handoff is rejected. Start again on the other device."
        )
    }
    static let handoffNotConfirmed = Self(
        "HANDOFF_NOT_CONFIRMED",
        .conflict,
        "Confirm the number shown on the other device first: POST /v1/client/cross-platform/{crossPlatformSessionId}/confirm."
    )
    static let handoffRejected = Self(
        "HANDOFF_REJECTED",
        .conflict,
        "This handoff was rejected (on the phone, or after wrong numbers); nothing can be approved with it. Start again on the other device."
    )
    static let handoffAlreadyApproved = Self(
        "HANDOFF_ALREADY_APPROVED",
        .conflict,
        "This handoff was approved already; it can no longer be rejected. Sign out on the other device if that was not you."
    )
    static let handoffCancelTooLate = Self(
        "HANDOFF_ALREADY_APPROVED",
        .conflict,
        "This handoff was approved on the phone already; it can no longer be cancelled. Sign out if the sign-in was not wanted."
    )
    static let handoffCancelled = Self(
        "HANDOFF_CANCELLED",
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
            "RATE_LIMITED",
            .tooManyRequests,
            "Too many status streams are open \(scope) (limits.\(limit.rawValue), \(value)). Poll GET /v1/client/cross-platform/{crossPlatformSessionId}/status every few seconds instead, or open the stream again after \(eventStreamRetryAfterSeconds) seconds.",
            retryable: true,
            headers: [.retryAfter: "\(eventStreamRetryAfterSeconds)"]
        )
    }
    static let handoffNotAvailable = Self(
        "HANDOFF_NOT_AVAILABLE",
        .badRequest,
        "This server has no page or link for the handoff: set crossDevice.linkBase (or a web origin, for the server's own /approve page)."
    )
}
