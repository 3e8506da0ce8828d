public import Foundation

/// The web sessions of the pages and the console, kept by the SHA-256 of their secrets. Part of ``PasskeyStore``.
public protocol WebSessionStore: Sendable {
    /// Inserts the session, and deletes up to ``WebSessionRecord/removedPerCall`` sessions that expired before
    /// `session.createdAt` (in order of expiry), so that they do not pile up.
    ///
    /// Refused, changing nothing, with `.duplicate` when a session with its id or its secret hash exists (expired or
    /// not), and with `.notFound` when `session.userID` names no user: so a sign-in racing the user's deletion leaves
    /// no session behind.
    ///
    /// Then, in the same transaction, when the session has a user, the user's oldest sessions (expired or not, by
    /// `createdAt`, then by the byte order of their ids) are deleted until `maximumPerUser` are left (at least the new
    /// one), so that a user's sessions stay bounded however often they sign in.
    func createWebSession(_ session: WebSessionRecord, maximumPerUser: Int) async throws(StoreError)
    /// The session whose secret hashes to `secretHash`, when it has not expired at `time` (its `expiresAt` is later).
    func webSession(secretHash: [UInt8], at time: Date) async throws(StoreError) -> WebSessionRecord?
    /// The user's sessions (of both kinds) that have not expired at `time`, newest first: by `createdAt`, and those
    /// created at the same time in descending byte order of their ids.
    func webSessions(userID: String, at time: Date) async throws(StoreError) -> [WebSessionRecord]
    /// One page of the sessions that have not expired at `time`, in the order of ``webSessions(userID:at:)``: the
    /// user's when `userID` is given, else the console's sessions signed in without a user (with an API key, a
    /// break-glass). Skips `offset` of them and returns at most `limit` (none when it is less than 1).
    func webSessions(
        userID: String?,
        at time: Date,
        offset: Int,
        limit: Int
    ) async throws(StoreError)
        -> [WebSessionRecord]
    /// Ends one session by its public id, expired or not; returns whether there was one.
    func deleteWebSession(id: String) async throws(StoreError) -> Bool
    /// Ends the user's sessions — all of them, or only those signed in with `credentialID` when it is given — in one
    /// atomic operation; returns how many were deleted (expired ones included).
    func deleteWebSessions(userID: String, credentialID: [UInt8]?) async throws(StoreError) -> Int
    /// "Sign out everywhere": a reset of the user (see ``PasskeyStore``). In one transaction, ends all the user's
    /// sessions, as ``deleteWebSessions(userID:credentialID:)`` does without a credential, and every flow of theirs in
    /// flight. Returns how many sessions were deleted; 0, changing nothing, when there is no such user.
    func signOutEverywhere(userID: String, at time: Date) async throws(StoreError) -> Int
}

extension WebSessionStore {
    /// Inserts the session with no bound on the user's sessions (see ``createWebSession(_:maximumPerUser:)``).
    public func createWebSession(_ session: WebSessionRecord) async throws(StoreError) {
        try await createWebSession(session, maximumPerUser: .max)
    }
}
