public import HTTPTypes

/// The one public error type of the server: a stable `UPPER_SNAKE` code, an HTTP status, a message that says
/// what to do, and whether retrying the same request may succeed. Rendered as
/// `{"error": {"code", "message", "retryable", "requestId"}}` (``response(from:context:)``), by
/// ``ErrorResponseMiddleware`` or by Hummingbird itself.
public struct APIError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: Code
    public let status: HTTPResponse.Status
    public let message: String
    public let retryable: Bool
    /// Extra response headers (such as `Retry-After`).
    public var headers: HTTPFields

    public init(
        _ code: Code,
        _ status: HTTPResponse.Status,
        _ message: String,
        retryable: Bool = false,
        headers: HTTPFields = [:]
    ) {
        self.code = code
        self.status = status
        self.message = message
        self.retryable = retryable
        self.headers = headers
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code && lhs.status == rhs.status }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(status.code)
    }

    public var description: String { "\(code) (\(status.code)): \(message)" }
}

extension APIError {
    /// A stable error code: an `UPPER_SNAKE` string that never changes meaning. A struct, not an enum, so that new
    /// codes can be added without breaking callers; written as a string literal where an error is declared.
    public struct Code: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }
    }

    /// Every code the server can answer, for documentation and exhaustive tests: one list per file of errors.
    public static let all: [Code] = general + identityVerification + crossDevice + recovery + web + webAuthn

    /// The codes of this file and of the errors raised where they happen (the flows, the HTTP layer).
    static let general: [Code] = [
        "INVALID_REQUEST", "NOT_FOUND", "METHOD_NOT_ALLOWED", "UNAUTHENTICATED", "PAYLOAD_TOO_LARGE", "RATE_LIMITED",
        "INTERNAL_ERROR", "SERVICE_UNAVAILABLE", "INVALID_OR_EXPIRED_SESSION", "REGISTRATION_ATTEMPT_EXPIRED",
        "REGISTRATION_ATTEMPT_CONFLICT", "RESERVATION_EXPIRED", "CHALLENGE_EXPIRED", "CHALLENGE_CONSUMED",
        "CHALLENGE_MISMATCH", "RESULT_ALREADY_REDEEMED", "INVALID_RESULT_TOKEN", "AUTHENTICATION_NOT_COMPLETED",
        "CREDENTIAL_NOT_FOUND", "CREDENTIAL_USE_CONFLICT", "CREDENTIAL_INACTIVE", "CREDENTIAL_ALREADY_REGISTERED",
        "MAX_CREDENTIALS_REACHED", "CREDENTIAL_NAME_DUPLICATE", "CREDENTIAL_NAME_INVALID", "CREDENTIAL_NAME_HTML",
        "NO_ACTIVE_CREDENTIALS", "STEP_UP_CREDENTIAL_USER_MISMATCH", "TRANSACTION_TEXT_INVALID", "FLOW_ENDED",
    ]
}

extension APIError {
    static func invalidRequest(_ message: String) -> Self { Self("INVALID_REQUEST", .badRequest, message) }
    static func notFound(_ message: String) -> Self { Self("NOT_FOUND", .notFound, message) }
    static let unauthenticated = Self(
        "UNAUTHENTICATED",
        .unauthorized,
        "Send a valid key in 'Authorization: Bearer …'."
    )
    static func payloadTooLarge(_ limit: Int) -> Self {
        Self("PAYLOAD_TOO_LARGE", .contentTooLarge, "The request body exceeds \(limit) bytes.")
    }
    static func rateLimited(retryAfter seconds: Int) -> Self {
        Self(
            "RATE_LIMITED",
            .tooManyRequests,
            "Too many requests; retry after \(seconds) seconds.",
            retryable: true,
            headers: [.retryAfter: "\(seconds)"]
        )
    }
    static let unexpected = Self(
        "INTERNAL_ERROR",
        .internalServerError,
        "Something went wrong on the server; it has been logged. Retry later.",
        retryable: true
    )
    /// The store cannot be reached, or is too busy (its queue full, or a wait for it timed out).
    static let storageUnavailable = Self(
        "SERVICE_UNAVAILABLE",
        .serviceUnavailable,
        "The database is unavailable or busy; retry shortly.",
        retryable: true,
        headers: [.retryAfter: "\(storageRetryAfterSeconds)"]
    )
    /// The `Retry-After` of ``storageUnavailable``, in seconds.
    static let storageRetryAfterSeconds = 2

    static let invalidOrExpiredSession = Self(
        "INVALID_OR_EXPIRED_SESSION",
        .gone,
        "This session does not exist or has expired; start a new one."
    )
    static let registrationAttemptExpired = Self(
        "REGISTRATION_ATTEMPT_EXPIRED",
        .gone,
        "This registration attempt has expired; create a new one."
    )
    /// A flow ended before it completed: its user was reset, or it was aborted (see `PasskeyStore`).
    static let flowEnded = Self(
        "FLOW_ENDED",
        .gone,
        "This flow was ended before it completed: the user's passkeys were reset (a recovery finalized, a passkey revoked, signed out everywhere) or it was aborted. Start a new one."
    )
    static func registrationAttemptConflict(_ message: String) -> Self {
        Self("REGISTRATION_ATTEMPT_CONFLICT", .conflict, message)
    }
    static let reservationExpired = Self(
        "RESERVATION_EXPIRED",
        .gone,
        "The reserved credential was not finalized in time and has been released; register again."
    )
    static let challengeExpired = Self(
        "CHALLENGE_EXPIRED",
        .gone,
        "The challenge expired; request new options and try again.",
        retryable: true
    )
    static let challengeConsumed = Self(
        "CHALLENGE_CONSUMED",
        .conflict,
        "This challenge was already used; request new options and try again."
    )
    static let resultAlreadyRedeemed = Self(
        "RESULT_ALREADY_REDEEMED",
        .conflict,
        "This result token was already redeemed."
    )
    static let credentialNotFound = Self(
        "CREDENTIAL_NOT_FOUND",
        .notFound,
        "No credential with this id is registered here."
    )
    static let credentialUseConflict = Self(
        "CREDENTIAL_USE_CONFLICT",
        .conflict,
        "Another sign-in with this passkey was recorded at the same moment; sign in again."
    )
    static let credentialInactive = Self(
        "CREDENTIAL_INACTIVE",
        .forbidden,
        "This credential has been revoked or is not finalized."
    )
    static let credentialAlreadyRegistered = Self(
        "CREDENTIAL_ALREADY_REGISTERED",
        .conflict,
        "This authenticator is already registered."
    )
    static let maxCredentialsReached = Self(
        "MAX_CREDENTIALS_REACHED",
        .conflict,
        "The user has the maximum number of passkeys; remove one first."
    )
    static let credentialNameDuplicate = Self(
        "CREDENTIAL_NAME_DUPLICATE",
        .conflict,
        "Another passkey of this user has that name; choose another."
    )
    static let noActiveCredentials = Self(
        "NO_ACTIVE_CREDENTIALS",
        .conflict,
        "The user has no active passkey; register one first."
    )
    static let userMismatch = Self(
        "STEP_UP_CREDENTIAL_USER_MISMATCH",
        .forbidden,
        "The passkey used belongs to another user than this session's."
    )
    /// A step-up's transaction text the person could not read as it is signed; `message` names what and where.
    static func transactionTextInvalid(_ message: String) -> Self {
        Self("TRANSACTION_TEXT_INVALID", .badRequest, message)
    }
}

// The web pages' own refusals.
extension APIError {
    static let web: [Code] = [
        "OPERATOR_REQUIRED", "DEMO_ACCOUNT_REQUIRED", "USER_NAME_TAKEN", "CSRF_TOKEN_INVALID", "SIGN_IN_REQUIRED",
        "CONSOLE_PASSKEY_REQUIRED", "OPERATOR_ACCOUNT_RESTRICTED", "CONSOLE_ENROLMENT_FORBIDDEN",
    ]
    static let operatorRequired = Self(
        "OPERATOR_REQUIRED",
        .forbidden,
        "This passkey's user is not an operator of this server: name their user id in web.operators, or sign in with an API key."
    )
    static let demoAccountsOnly = Self(
        "DEMO_ACCOUNT_REQUIRED",
        .forbidden,
        "This passkey belongs to an account of the site, not to a demo account; the demo signs in its own accounts only. Sign up on the demo page to make a demo account, then sign in with its passkey."
    )
    static let userNameTaken = Self(
        "USER_NAME_TAKEN",
        .conflict,
        "An account with this user name exists; sign in, or choose another name."
    )
    static let csrfTokenInvalid = Self(
        "CSRF_TOKEN_INVALID",
        .forbidden,
        "The form or request did not carry this page's CSRF token; reload the page and try again."
    )
    static let crossSiteRequest = Self(
        "CSRF_TOKEN_INVALID",
        .forbidden,
        "This request came from another site (Sec-Fetch-Site: cross-site), so it was refused; use the form on this site's own page."
    )
    static let signInRequired = Self(
        "SIGN_IN_REQUIRED",
        .unauthorized,
        "Sign in first; the session is missing or has ended."
    )
}
