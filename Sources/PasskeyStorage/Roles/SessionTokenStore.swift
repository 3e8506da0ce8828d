public import Foundation

/// The token sessions an integrator may ask for at redemption: the keys that sign their access tokens, and their
/// refresh-token families, kept by the SHA-256 of each refresh token. Part of ``PasskeyStore``.
public protocol SessionTokenStore: Sendable {
    /// The current signing key; when there is none, `candidate` is inserted as the current key first. Race-safe: of
    /// processes that find no key at once, one inserts its candidate and all of them get that key.
    func currentSigningKey(creatingIfNone candidate: SessionSigningKey) async throws(StoreError) -> SessionSigningKey
    /// Makes `key` the current key in one transaction: the current key (if any) is retired at `key.createdAt` and
    /// published until `retiredKeyPublishedUntil`. Returns the retired key. Refused with `.duplicate` when a key has
    /// `key.id`.
    func rotateSigningKey(
        to key: SessionSigningKey,
        retiredKeyPublishedUntil: Date
    ) async throws(StoreError) -> SessionSigningKey?
    /// The keys published at `time` (``SessionSigningKey/isPublished(at:)``): the current key first, then the retired
    /// ones, newest first (by `createdAt`, then in descending byte order of their ids).
    func publishedSigningKeys(at time: Date) async throws(StoreError) -> [SessionSigningKey]

    /// Starts a family with its first token. Refused, changing nothing, with `.notFound` when `family.userID` names
    /// no user (a sign-in racing the user's deletion leaves no session behind), and with `.duplicate` when the
    /// family's id or the token's hash is taken.
    func createRefreshTokenFamily(_ family: RefreshTokenFamily, firstToken: RefreshToken) async throws(StoreError)
    /// Exchanges the token whose SHA-256 is `hash` for the one whose SHA-256 is `nextHash`, as a compare-and-set: when
    /// the token is unused, unexpired at `time` and its family neither revoked nor expired, the token is marked used
    /// and the next one inserted (expiring at `nextExpiresAt`, or at the family's end if that is sooner) in the same
    /// transaction. Of two racing rotations of one token exactly one succeeds; the other finds the token used, which
    /// is a reuse: its family is revoked. See ``RefreshTokenRotation`` for every outcome.
    func rotateRefreshToken(
        hash: [UInt8],
        nextHash: [UInt8],
        nextExpiresAt: Date,
        at time: Date
    ) async throws(StoreError) -> RefreshTokenRotation
    /// Revokes the family of the token whose SHA-256 is `hash` (used or not, expired or not) at `time`, with
    /// ``RefreshTokenFamily/Revocation/revoked``; a family revoked already keeps its first revocation. Returns the
    /// family as it is now, and whether this call revoked it; nil when no token has this hash.
    func revokeRefreshTokenFamily(
        tokenHash hash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> (family: RefreshTokenFamily, revokedNow: Bool)?
    /// The user's families, revoked or not, newest first (by `createdAt`, then by id).
    func refreshTokenFamilies(userID: String) async throws(StoreError) -> [RefreshTokenFamily]
}
