import Foundation

extension PasskeyClientAPI {
    /// `POST /v1/sessions/refresh`: spends `refreshToken` and returns the next pair. The refresh token is the only
    /// credential. A refresh token spent before revokes its whole session (`REFRESH_TOKEN_REUSED`).
    public func refreshSession(refreshToken: String) async throws(PasskeyError) -> SessionTokens {
        try await requester.send(
            "POST",
            ["v1", "sessions", "refresh"],
            token: nil,
            body: SessionTokenBody(refreshToken: refreshToken),
            as: SessionTokens.self
        )
    }

    /// `POST /v1/sessions/revoke`: ends the session of `refreshToken` (signing out). Idempotent.
    public func revokeSession(refreshToken: String) async throws(PasskeyError) {
        _ = try await requester.sendRaw(
            "POST",
            ["v1", "sessions", "revoke"],
            token: nil,
            body: SessionTokenBody(refreshToken: refreshToken)
        )
    }
}

struct SessionTokenBody: Encodable, Sendable {
    let refreshToken: String
}
