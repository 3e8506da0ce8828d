public import Foundation

/// A token session as the server issues it: at a redemption with `issueSession` (``RedeemedAuthentication/session``)
/// and at every refresh. The access token is an ES256 JWT for the integrator's own APIs; the refresh token is opaque
/// and single-use.
public struct SessionTokens: Sendable, Hashable, Codable {
    public var accessToken: String
    /// Always `Bearer`.
    public var tokenType: String
    /// Seconds until the access token expires.
    public var expiresIn: Int
    public var refreshToken: String
    /// Seconds until the refresh token expires unused.
    public var refreshExpiresIn: Int

    public init(accessToken: String, tokenType: String, expiresIn: Int, refreshToken: String, refreshExpiresIn: Int) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.refreshExpiresIn = refreshExpiresIn
    }
}

/// A token session as the app keeps it: the tokens and when each expires (received at `receivedAt` plus their
/// lifetimes). What a ``TokenSessionStorage`` saves.
public struct StoredTokenSession: Sendable, Hashable, Codable {
    public var accessToken: String
    public var accessTokenExpiresAt: Date
    public var refreshToken: String
    public var refreshTokenExpiresAt: Date

    public init(accessToken: String, accessTokenExpiresAt: Date, refreshToken: String, refreshTokenExpiresAt: Date) {
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
    }

    /// The session of `tokens` received at `receivedAt`.
    public init(_ tokens: SessionTokens, receivedAt: Date) {
        self.init(
            accessToken: tokens.accessToken,
            accessTokenExpiresAt: receivedAt.addingTimeInterval(TimeInterval(tokens.expiresIn)),
            refreshToken: tokens.refreshToken,
            refreshTokenExpiresAt: receivedAt.addingTimeInterval(TimeInterval(tokens.refreshExpiresIn))
        )
    }
}
