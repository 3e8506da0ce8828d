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

extension APIError.Code {
    /// The request is malformed; the message names the field and the rule.
    public static let invalidRequest = Self(rawValue: "INVALID_REQUEST")
    /// No such resource (a user, a flow, a credential) or endpoint.
    public static let notFound = Self(rawValue: "NOT_FOUND")
    /// This endpoint accepts … only.
    public static let methodNotAllowed = Self(rawValue: "METHOD_NOT_ALLOWED")
    /// Send a valid key in 'Authorization: Bearer …'.
    public static let unauthenticated = Self(rawValue: "UNAUTHENTICATED")
    /// The payload does not fit in a version 10 symbol at the chosen level (213 bytes at level M); shorten it or choose
    /// a lower level.
    public static let payloadTooLarge = Self(rawValue: "PAYLOAD_TOO_LARGE")
    /// Too many requests; retry after … seconds.
    public static let rateLimited = Self(rawValue: "RATE_LIMITED")
    /// Something went wrong on the server; it has been logged. Retry later.
    public static let internalError = Self(rawValue: "INTERNAL_ERROR")
    /// The database is unavailable or busy; retry shortly.
    public static let serviceUnavailable = Self(rawValue: "SERVICE_UNAVAILABLE")
    /// This session does not exist or has expired; start a new one.
    public static let invalidOrExpiredSession = Self(rawValue: "INVALID_OR_EXPIRED_SESSION")
    /// This registration attempt has expired; create a new one.
    public static let registrationAttemptExpired = Self(rawValue: "REGISTRATION_ATTEMPT_EXPIRED")
    /// The registration attempt is in a state that does not allow the call (complete, finalized or aborted); the message says which.
    public static let registrationAttemptConflict = Self(rawValue: "REGISTRATION_ATTEMPT_CONFLICT")
    /// The reserved credential was not finalized in time and has been released; register again.
    public static let reservationExpired = Self(rawValue: "RESERVATION_EXPIRED")
    /// The challenge expired; request new options and try again.
    public static let challengeExpired = Self(rawValue: "CHALLENGE_EXPIRED")
    /// This challenge was already used; request new options and try again.
    public static let challengeConsumed = Self(rawValue: "CHALLENGE_CONSUMED")
    /// `clientData.challenge` is not the challenge the relying party issued.
    public static let challengeMismatch = Self(rawValue: "CHALLENGE_MISMATCH")
    /// This result token was already redeemed.
    public static let resultAlreadyRedeemed = Self(rawValue: "RESULT_ALREADY_REDEEMED")
    /// The result token does not belong to this session.
    public static let invalidResultToken = Self(rawValue: "INVALID_RESULT_TOKEN")
    /// The user has not completed this sign-in (status …).
    public static let authenticationNotCompleted = Self(rawValue: "AUTHENTICATION_NOT_COMPLETED")
    /// No credential with this id is registered here.
    public static let credentialNotFound = Self(rawValue: "CREDENTIAL_NOT_FOUND")
    /// Another sign-in with the passkey was recorded at the same moment; sign in again.
    public static let credentialUseConflict = Self(rawValue: "CREDENTIAL_USE_CONFLICT")
    /// This credential has been revoked or is not finalized.
    public static let credentialInactive = Self(rawValue: "CREDENTIAL_INACTIVE")
    /// This authenticator is already registered.
    public static let credentialAlreadyRegistered = Self(rawValue: "CREDENTIAL_ALREADY_REGISTERED")
    /// The user has the maximum number of passkeys; remove one first.
    public static let maxCredentialsReached = Self(rawValue: "MAX_CREDENTIALS_REACHED")
    /// Another passkey of this user has that name; choose another.
    public static let credentialNameDuplicate = Self(rawValue: "CREDENTIAL_NAME_DUPLICATE")
    /// A passkey name must be 1 to … characters.
    public static let credentialNameInvalid = Self(rawValue: "CREDENTIAL_NAME_INVALID")
    /// A passkey name must not contain HTML ('<' or '>').
    public static let credentialNameHtml = Self(rawValue: "CREDENTIAL_NAME_HTML")
    /// The user has no active passkey; register one first.
    public static let noActiveCredentials = Self(rawValue: "NO_ACTIVE_CREDENTIALS")
    /// The passkey used belongs to another user than this session's.
    public static let stepUpCredentialUserMismatch = Self(rawValue: "STEP_UP_CREDENTIAL_USER_MISMATCH")
    /// A step-up's `transaction.text` is empty, too long, holds a character the person would not see as it is signed (a
    /// control, line or paragraph separator, invisible default-ignorable, tag or direction character: the message names
    /// it as U+XXXX with its line and character), has more than 20 lines, or more than one blank line in a row.
    public static let transactionTextInvalid = Self(rawValue: "TRANSACTION_TEXT_INVALID")
    /// The registration or sign-in was ended before it completed: its user was reset (a recovery finalized, a passkey
    /// revoked, signed out everywhere) or it was aborted. Start a new one.
    public static let flowEnded = Self(rawValue: "FLOW_ENDED")
}

extension APIError {
    /// A stable error code: an `UPPER_SNAKE` string that never changes meaning. A struct, not an enum, so that new
    /// codes can be added without breaking callers. Each code is one named constant with its meaning, declared beside
    /// the errors of its flow (`APIError.Code.flowEnded`), and listed in that flow's list of ``all``; code is written
    /// with the constants, never with the string, so a misspelt code does not compile.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
    }

    /// Every code the server can answer, for documentation and exhaustive tests: one list per file of errors.
    public static let all: [Code] =
        general + registration + idempotency + identityVerification + handoff + recovery + web + webAuthn + apiKeys
        + sessions

    /// The codes of this file and of the errors raised where they happen (the flows, the HTTP layer).
    static let general: [Code] = [
        .invalidRequest, .notFound, .methodNotAllowed, .unauthenticated, .payloadTooLarge, .rateLimited, .internalError,
        .serviceUnavailable, .invalidOrExpiredSession, .registrationAttemptExpired, .registrationAttemptConflict,
        .reservationExpired, .challengeExpired, .challengeConsumed, .challengeMismatch, .resultAlreadyRedeemed,
        .invalidResultToken, .authenticationNotCompleted, .credentialNotFound, .credentialUseConflict,
        .credentialInactive, .credentialAlreadyRegistered, .maxCredentialsReached, .credentialNameDuplicate,
        .credentialNameInvalid, .credentialNameHtml, .noActiveCredentials, .stepUpCredentialUserMismatch,
        .transactionTextInvalid, .flowEnded,
    ]
}

extension APIError {
    static func invalidRequest(_ message: String) -> Self { Self(.invalidRequest, .badRequest, message) }
    static func notFound(_ message: String) -> Self { Self(.notFound, .notFound, message) }
    static let unauthenticated = Self(
        .unauthenticated,
        .unauthorized,
        "Send a valid key in 'Authorization: Bearer …'."
    )
    static func payloadTooLarge(_ limit: Int) -> Self {
        Self(.payloadTooLarge, .contentTooLarge, "The request body exceeds \(limit) bytes.")
    }
    static func rateLimited(retryAfter seconds: Int) -> Self {
        Self(
            .rateLimited,
            .tooManyRequests,
            "Too many requests; retry after \(seconds) seconds.",
            retryable: true,
            headers: [.retryAfter: "\(seconds)"]
        )
    }
    static let unexpected = Self(
        .internalError,
        .internalServerError,
        "Something went wrong on the server; it has been logged. Retry later.",
        retryable: true
    )
    /// The store cannot be reached, or is too busy (its queue full, or a wait for it timed out).
    static let storageUnavailable = Self(
        .serviceUnavailable,
        .serviceUnavailable,
        "The database is unavailable or busy; retry shortly.",
        retryable: true,
        headers: [.retryAfter: "\(storageRetryAfterSeconds)"]
    )
    /// The `Retry-After` of ``storageUnavailable``, in seconds.
    static let storageRetryAfterSeconds = 2

    static let invalidOrExpiredSession = Self(
        .invalidOrExpiredSession,
        .gone,
        "This session does not exist or has expired; start a new one."
    )
    static let registrationAttemptExpired = Self(
        .registrationAttemptExpired,
        .gone,
        "This registration attempt has expired; create a new one."
    )
    /// A flow ended before it completed: its user was reset, or it was aborted (see `PasskeyStore`).
    static let flowEnded = Self(
        .flowEnded,
        .gone,
        "This flow was ended before it completed: the user's passkeys were reset (a recovery finalized, a passkey revoked, signed out everywhere) or it was aborted. Start a new one."
    )
    static func registrationAttemptConflict(_ message: String) -> Self {
        Self(.registrationAttemptConflict, .conflict, message)
    }
    static let reservationExpired = Self(
        .reservationExpired,
        .gone,
        "The reserved credential was not finalized in time and has been released; register again."
    )
    static let challengeExpired = Self(
        .challengeExpired,
        .gone,
        "The challenge expired; request new options and try again.",
        retryable: true
    )
    static let challengeConsumed = Self(
        .challengeConsumed,
        .conflict,
        "This challenge was already used; request new options and try again."
    )
    static let resultAlreadyRedeemed = Self(
        .resultAlreadyRedeemed,
        .conflict,
        "This result token was already redeemed."
    )
    static let credentialNotFound = Self(
        .credentialNotFound,
        .notFound,
        "No credential with this id is registered here."
    )
    /// The device named the passkeys it holds (`credentialIds` of the request options), and none can sign in here.
    static let noHeldCredential = Self(
        .credentialNotFound,
        .notFound,
        "None of the passkeys this device holds can complete this sign-in here: register a passkey first, or sign in "
            + "with a device that has one."
    )
    static let credentialUseConflict = Self(
        .credentialUseConflict,
        .conflict,
        "Another sign-in with this passkey was recorded at the same moment; sign in again."
    )
    static let credentialInactive = Self(
        .credentialInactive,
        .forbidden,
        "This credential has been revoked or is not finalized."
    )
    static let credentialAlreadyRegistered = Self(
        .credentialAlreadyRegistered,
        .conflict,
        "This authenticator is already registered."
    )
    static let maxCredentialsReached = Self(
        .maxCredentialsReached,
        .conflict,
        "The user has the maximum number of passkeys; remove one first."
    )
    static let credentialNameDuplicate = Self(
        .credentialNameDuplicate,
        .conflict,
        "Another passkey of this user has that name; choose another."
    )
    static let noActiveCredentials = Self(
        .noActiveCredentials,
        .conflict,
        "The user has no active passkey; register one first."
    )
    static let userMismatch = Self(
        .stepUpCredentialUserMismatch,
        .forbidden,
        "The passkey used belongs to another user than this session's."
    )
    /// A step-up's transaction text the person could not read as it is signed; `message` names what and where.
    static func transactionTextInvalid(_ message: String) -> Self {
        Self(.transactionTextInvalid, .badRequest, message)
    }
}

extension APIError.Code {
    /// Web pages: the passkey's user is not named in `web.operators`.
    public static let operatorRequired = Self(rawValue: "OPERATOR_REQUIRED")
    /// Web pages: the demo signs in only the accounts it made (sign up on the demo page to make one). The demo's own
    /// sign-in sessions refuse another account's passkey at the completion — a phone approving with `passkeys approve`
    /// is told so, nothing is approved, and the first device's handoff status is `rejected` with this code.
    public static let demoAccountRequired = Self(rawValue: "DEMO_ACCOUNT_REQUIRED")
    /// An account with this user name exists; sign in, or choose another name.
    public static let userNameTaken = Self(rawValue: "USER_NAME_TAKEN")
    /// The form or request did not carry this page's CSRF token; reload the page and try again.
    public static let csrfTokenInvalid = Self(rawValue: "CSRF_TOKEN_INVALID")
    /// Sign in first; the session is missing or has ended.
    public static let signInRequired = Self(rawValue: "SIGN_IN_REQUIRED")
    /// Web pages: the operator's passkey was not enrolled for the console (a passkey of the demo, the API or a
    /// recovery); an operator in the console, or a break-glass session, adds a console passkey on the operator's user
    /// page.
    public static let consolePasskeyRequired = Self(rawValue: "CONSOLE_PASSKEY_REQUIRED")
    /// Web pages: the demo neither signs an operator's account in through "Sign in with your phone" nor adds passkeys
    /// to it.
    public static let operatorAccountRestricted = Self(rawValue: "OPERATOR_ACCOUNT_RESTRICTED")
    /// Web pages: console passkeys are added only for users named in `web.operators`, by that operator themselves or in
    /// a break-glass session.
    public static let consoleEnrolmentForbidden = Self(rawValue: "CONSOLE_ENROLMENT_FORBIDDEN")
}

// The web pages' own refusals.
extension APIError {
    static let web: [Code] = [
        .operatorRequired, .demoAccountRequired, .userNameTaken, .csrfTokenInvalid, .signInRequired,
        .consolePasskeyRequired, .operatorAccountRestricted, .consoleEnrolmentForbidden,
    ]
    static let operatorRequired = Self(
        .operatorRequired,
        .forbidden,
        "This passkey's user is not an operator of this server: name their user id in web.operators, or sign in with an API key."
    )
    static let demoAccountsOnly = Self(
        .demoAccountRequired,
        .forbidden,
        "This passkey belongs to an account of the site, not to a demo account; the demo signs in its own accounts only. Sign up on the demo page to make a demo account, then sign in with its passkey."
    )
    static let userNameTaken = Self(
        .userNameTaken,
        .conflict,
        "An account with this user name exists; sign in, or choose another name."
    )
    static let csrfTokenInvalid = Self(
        .csrfTokenInvalid,
        .forbidden,
        "The form or request did not carry this page's CSRF token; reload the page and try again."
    )
    static let crossSiteRequest = Self(
        .csrfTokenInvalid,
        .forbidden,
        "This request came from another site (Sec-Fetch-Site: cross-site), so it was refused; use the form on this site's own page."
    )
    static let signInRequired = Self(
        .signInRequired,
        .unauthorized,
        "Sign in first; the session is missing or has ended."
    )
}
