public import Foundation

/// The app's side of a token session: it keeps the tokens in a ``TokenSessionStorage``, hands out an access token
/// that is still valid (refreshing it first when it expires within ``refreshMargin``), saves the new pair on every
/// refresh (the old refresh token is spent), and forgets the session when the server says it is over — expired,
/// revoked, reused or unknown (`INVALID_OR_EXPIRED_SESSION`, with the server's code in ``PasskeyError/serverCode``):
/// the user then signs in again.
///
/// One refresh at a time: concurrent callers of ``accessToken()`` share one refresh, because the server treats a
/// second use of one refresh token as theft and revokes the session. Keep one `TokenSession` per storage.
public actor TokenSession {
    private let api: PasskeyClientAPI
    private let storage: any TokenSessionStorage
    private let now: @Sendable () -> Date
    /// How long before the access token's expiry ``accessToken()`` refreshes it.
    public let refreshMargin: TimeInterval
    private var refreshing: Task<Result<StoredTokenSession, PasskeyError>, Never>?

    /// The server codes after which a session cannot be refreshed again.
    static let endedCodes: Set<String> = [
        "REFRESH_TOKEN_INVALID", "REFRESH_TOKEN_EXPIRED", "REFRESH_TOKEN_REUSED", "SESSION_REVOKED",
    ]

    public init(
        api: PasskeyClientAPI,
        storage: any TokenSessionStorage,
        refreshMargin: TimeInterval = 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.api = api
        self.storage = storage
        self.refreshMargin = refreshMargin
        self.now = now
    }

    /// Keeps the tokens the app's backend handed over after a sign-in (``RedeemedAuthentication/session``).
    public func start(with tokens: SessionTokens) async throws(PasskeyError) {
        try await storage.save(StoredTokenSession(tokens, receivedAt: now()))
    }

    /// Whether a session is stored whose refresh token has not expired.
    public var isSignedIn: Bool {
        get async throws(PasskeyError) {
            guard let session = try await storage.load() else { return false }
            return session.refreshTokenExpiresAt > now()
        }
    }

    /// An access token valid for at least ``refreshMargin`` more (refreshed first when needed), for the
    /// integrator's APIs.
    /// - Throws: `INVALID_OR_EXPIRED_SESSION` when there is no session or it ended (the stored session is then
    ///   forgotten); transport errors (`NETWORK_ERROR`, `TIMEOUT`) leave the session stored, to try again.
    public func accessToken() async throws(PasskeyError) -> String {
        guard let session = try await storage.load() else { throw Self.noSession }
        if session.accessTokenExpiresAt.timeIntervalSince(now()) > refreshMargin { return session.accessToken }
        return try await refresh().accessToken
    }

    /// Refreshes now, whatever the access token's expiry (after the server refused it, say); returns the new pair.
    @discardableResult
    public func refresh() async throws(PasskeyError) -> StoredTokenSession {
        if let refreshing { return try await refreshing.value.get() }
        let task = Task { await self.refreshOnce() }
        refreshing = task
        let result = await task.value
        refreshing = nil
        return try result.get()
    }

    /// Signs out: revokes the session on the server and forgets it here. The session is forgotten even when the
    /// server cannot be reached (the error is thrown after).
    public func signOut() async throws(PasskeyError) {
        guard let session = try await storage.load() else { return }
        try await storage.clear()
        do {
            try await api.revokeSession(refreshToken: session.refreshToken)
        } catch  where error.serverCode.map(Self.endedCodes.contains) == true {
            // Over already.
        }
    }

    private func refreshOnce() async -> Result<StoredTokenSession, PasskeyError> {
        do throws(PasskeyError) {
            guard let stored = try await storage.load() else { throw Self.noSession }
            let tokens = try await api.refreshSession(refreshToken: stored.refreshToken)
            let next = StoredTokenSession(tokens, receivedAt: now())
            try await storage.save(next)
            return .success(next)
        } catch {
            if let code = error.serverCode, Self.endedCodes.contains(code) { try? await storage.clear() }
            return .failure(error)
        }
    }

    static let noSession = PasskeyError(.invalidOrExpiredSession, "No token session is stored: sign the user in.")
}
