import HTTPTypes

extension APIError.Code {
    /// No token session has this refresh token (it was never issued, or its session ended long ago and was purged).
    public static let refreshTokenInvalid = Self(rawValue: "REFRESH_TOKEN_INVALID")
    /// The refresh token, or its session's absolute lifetime (`sessions.maximumSessionSeconds`), has expired.
    public static let refreshTokenExpired = Self(rawValue: "REFRESH_TOKEN_EXPIRED")
    /// The refresh token was used already. Someone may hold a copy of it, so its whole session is revoked now: the
    /// newest refresh token of the session fails too.
    public static let refreshTokenReused = Self(rawValue: "REFRESH_TOKEN_REUSED")
    /// The token session was revoked: signed out, a reused refresh token, or a reset of the user (a recovery, a passkey
    /// revoked, signed out everywhere).
    public static let sessionRevoked = Self(rawValue: "SESSION_REVOKED")
}

/// The codes of token sessions (`POST /v1/sessions/refresh` and `/revoke`). Each of them ends the session for the app:
/// the user signs in again.
extension APIError {
    static let sessions: [Code] = [.refreshTokenInvalid, .refreshTokenExpired, .refreshTokenReused, .sessionRevoked]

    static let refreshTokenInvalid = Self(
        .refreshTokenInvalid,
        .unauthorized,
        "No token session has this refresh token; sign the user in again."
    )
    static let refreshTokenExpired = Self(
        .refreshTokenExpired,
        .unauthorized,
        "This refresh token or its session has expired; sign the user in again."
    )
    static let refreshTokenReused = Self(
        .refreshTokenReused,
        .unauthorized,
        "This refresh token was used already, so someone may hold a copy: its session is revoked now. Sign the user in again, and keep only the newest refresh token."
    )
    static let sessionRevoked = Self(
        .sessionRevoked,
        .unauthorized,
        "This token session was revoked (signed out, a reused refresh token, or the user's passkeys or sessions were reset); sign the user in again."
    )
}
