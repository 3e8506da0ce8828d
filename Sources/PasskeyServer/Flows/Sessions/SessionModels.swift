import Foundation

/// A token session as the API gives it out: at a redemption that asked for it (`"issueSession": true`), and at each
/// refresh. The refresh token is shown once; the store keeps only its SHA-256.
struct IssuedSession: Codable, Sendable, Equatable {
    /// An ES256 JWT (see ``AccessTokenClaims``), verifiable with the keys at `/.well-known/jwks.json`.
    let accessToken: String
    /// Always `Bearer`.
    let tokenType: String
    /// Seconds until the access token expires.
    let expiresIn: Int
    /// Opaque (`pks_…`); exchanged at `POST /v1/sessions/refresh` for a new pair, once.
    let refreshToken: String
    /// Seconds until the refresh token expires unused.
    let refreshExpiresIn: Int
}

/// `POST /v1/sessions/refresh` and `POST /v1/sessions/revoke`: the refresh token is the caller's only credential.
struct SessionTokenRequest: Decodable, Sendable {
    let refreshToken: String
}

/// `POST /v1/sessions/revoke`: the session is revoked (or was already).
struct RevokedSession: Encodable, Sendable {
    let revoked: Bool
}
