public import Foundation

/// A token session: the refresh tokens that descend from one sign-in, each one replacing the one before (the refresh
/// token rotates on every use). What the sign-in proved is kept with the family, so every access token the family
/// issues says the same of the user's authentication.
///
/// The family ends when it expires (`expiresAt`, an absolute lifetime from the sign-in, however often it is
/// refreshed), or when it is revoked: by the user's app (sign-out), when a refresh token that was used already is
/// presented again (reuse: someone holds a copy), or by a reset of the user (see ``PasskeyStore``).
public struct RefreshTokenFamily: Sendable, Hashable {
    /// Why a family was revoked.
    public enum Revocation: String, Sendable, Hashable, CaseIterable {
        /// Its app signed out (`POST /v1/sessions/revoke`).
        case revoked
        /// A refresh token of the family was presented after it had been used.
        case reuse
        /// The user was reset: a recovery finalized, a passkey revoked, signed out everywhere.
        case reset
    }

    /// Public handle (`sf_…`), recorded in the audit log; not a secret.
    public var id: String
    public var userID: String
    /// When the user signed in (the access tokens' `auth_time`).
    public var authTime: Date
    /// The authentication methods (RFC 8176 names, the access tokens' `amr`).
    public var methods: [String]
    /// The assurance of the sign-in (the access tokens' `acr`).
    public var assurance: String
    public var createdAt: Date
    /// The absolute end of the family: no refresh token of it is accepted from then on.
    public var expiresAt: Date
    public var revokedAt: Date?
    public var revocation: Revocation?

    public init(
        id: String,
        userID: String,
        authTime: Date,
        methods: [String],
        assurance: String,
        createdAt: Date,
        expiresAt: Date,
        revokedAt: Date? = nil,
        revocation: Revocation? = nil
    ) {
        self.id = id
        self.userID = userID
        self.authTime = authTime
        self.methods = methods
        self.assurance = assurance
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.revocation = revocation
    }
}

/// One refresh token of a ``RefreshTokenFamily``, kept by the SHA-256 of the token.
public struct RefreshToken: Sendable, Hashable {
    public var tokenHash: [UInt8]
    public var familyID: String
    public var createdAt: Date
    /// When the token stops being accepted (never after its family's `expiresAt`).
    public var expiresAt: Date
    /// When it was exchanged for its successor; a used token presented again is a reuse.
    public var usedAt: Date?

    public init(tokenHash: [UInt8], familyID: String, createdAt: Date, expiresAt: Date, usedAt: Date? = nil) {
        self.tokenHash = tokenHash
        self.familyID = familyID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}

/// What ``SessionTokenStore/rotateRefreshToken(hash:nextHash:nextExpiresAt:at:)`` did with a presented token.
public enum RefreshTokenRotation: Sendable, Hashable {
    /// The token was live and unused: it is used now, and the next token (with the expiry returned) replaces it.
    case rotated(RefreshTokenFamily, nextExpiresAt: Date)
    /// The token had been used already: its family is revoked now (with ``RefreshTokenFamily/Revocation/reuse``), so
    /// the newest token of the family fails too.
    case reused(RefreshTokenFamily)
    /// The family was revoked before; nothing changed.
    case revoked(RefreshTokenFamily)
    /// The token or its family expired; nothing changed.
    case expired(RefreshTokenFamily)
    /// No token has this hash (or its family was purged).
    case unknown
}
