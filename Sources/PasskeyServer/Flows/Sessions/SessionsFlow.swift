import Foundation
import Logging
import PasskeyStorage
import WebAuthn

/// Token sessions for integrators (docs/server.md, "Token sessions"): a redemption that asks for one gets an ES256
/// access token and an opaque refresh token; the app exchanges the refresh token for a new pair, once per token (it
/// rotates), and a used refresh token presented again revokes its whole session (reuse detection, as the OAuth 2.0
/// security BCP recommends). The refresh token is the only credential of `POST /v1/sessions/refresh` and `/revoke`,
/// as a public client's is at an OAuth token endpoint.
struct SessionsFlow: ServiceFlow {
    let context: FlowContext

    /// A refresh token is `pks_` and 43 base64url characters; anything longer is refused before it is hashed.
    static let maximumRefreshTokenLength = 128
    static let refreshTokenPrefix = "pks_"
    /// How long after an access token's expiry its key stays published: servers' clocks differ, and a server may sign
    /// with a key read just before the key was rotated.
    static let publicationMargin: TimeInterval = 60

    /// Starts a token session for the user of a redeemed sign-in: its family in the store, its first tokens.
    func issue(
        for result: AuthenticationResult,
        flowID: String,
        by caller: Caller
    ) async throws(APIError) -> IssuedSession {
        let time = now()
        // The key first: once the family is stored, only signing (no I/O) is left to fail.
        let key = try await currentKey(at: time)
        let family = RefreshTokenFamily(
            id: Secrets.identifier(prefix: "sf_"),
            userID: result.userId,
            authTime: result.completedAt,
            methods: AccessTokenClaims.methods(
                backupEligible: result.backupEligible,
                userVerified: result.userVerified
            ),
            assurance: result.assurance ?? (result.userVerified ? "passkey+uv" : "passkey"),
            createdAt: time,
            expiresAt: time.addingTimeInterval(TimeInterval(configuration.sessions.maximumSessionSeconds))
        )
        let refreshToken = Secrets.token(prefix: Self.refreshTokenPrefix)
        let refreshExpiry = min(family.expiresAt, expiry(configuration.sessions.refreshTokenSeconds))
        do {
            try await store.createRefreshTokenFamily(
                family,
                firstToken: RefreshToken(
                    tokenHash: Secrets.hash(refreshToken),
                    familyID: family.id,
                    createdAt: time,
                    expiresAt: refreshExpiry
                )
            )
        } catch  where error.code == .notFound {
            // The user was deleted between the redemption and now.
            throw APIError.notFound("No user \(result.userId).")
        } catch {
            throw storageFailure(error)
        }
        let session = try session(
            family,
            signedWith: key,
            transactionDigest: result.transaction?.digest,
            refreshToken: refreshToken,
            refreshExpiresAt: refreshExpiry,
            at: time
        )
        await audit(
            .sessionIssued,
            by: caller,
            userID: family.userID,
            subject: family.id,
            details: ["authentication": flowID, "amr": family.methods.joined(separator: " "), "acr": family.assurance]
        )
        return session
    }

    /// `POST /v1/sessions/refresh`: a new access token and refresh token for a live, unused refresh token.
    func refresh(_ request: SessionTokenRequest, by caller: Caller) async throws(APIError) -> IssuedSession {
        let presented = try Self.checked(request.refreshToken)
        let time = now()
        // The key first: once the refresh token is spent, only signing (no I/O) is left to fail, so an answer is not
        // lost to a database that went away between the two (the app would then present a spent token: a reuse).
        let key = try await currentKey(at: time)
        let next = Secrets.token(prefix: Self.refreshTokenPrefix)
        let rotation = try await storage {
            try await store.rotateRefreshToken(
                hash: Secrets.hash(presented),
                nextHash: Secrets.hash(next),
                nextExpiresAt: expiry(configuration.sessions.refreshTokenSeconds),
                at: time
            )
        }
        switch rotation {
        case .rotated(let family, let nextExpiresAt):
            let session = try session(
                family,
                signedWith: key,
                transactionDigest: nil,
                refreshToken: next,
                refreshExpiresAt: nextExpiresAt,
                at: time
            )
            await audit(.sessionRefreshed, by: caller, userID: family.userID, subject: family.id)
            return session
        case .reused(let family):
            await audit(.sessionReuseDetected, by: caller, userID: family.userID, subject: family.id)
            throw APIError.refreshTokenReused
        case .revoked:
            throw APIError.sessionRevoked
        case .expired:
            throw APIError.refreshTokenExpired
        case .unknown:
            throw APIError.refreshTokenInvalid
        }
    }

    /// `POST /v1/sessions/revoke`: ends the token session of the refresh token (any of its tokens, used or not), as
    /// signing out does. Idempotent: a session revoked before answers the same.
    func revoke(_ request: SessionTokenRequest, by caller: Caller) async throws(APIError) -> RevokedSession {
        let presented = try Self.checked(request.refreshToken)
        let time = now()
        guard
            let (family, revokedNow) = try await storage({
                try await store.revokeRefreshTokenFamily(tokenHash: Secrets.hash(presented), at: time)
            })
        else { throw APIError.refreshTokenInvalid }
        if revokedNow { await audit(.sessionRevoked, by: caller, userID: family.userID, subject: family.id) }
        return RevokedSession(revoked: true)
    }

    /// `GET /.well-known/jwks.json`: the current key and the retired keys whose tokens may not have expired yet. Makes
    /// the first key when there is none, so a verifier that fetches the set before the first sign-in finds the key.
    func keySet() async throws(APIError) -> JSONWebKeySet {
        let time = now()
        var keys = try await storage { try await store.publishedSigningKeys(at: time) }
        if !keys.contains(where: \.isCurrent) {
            _ = try await currentKey(at: time)
            keys = try await storage { try await store.publishedSigningKeys(at: time) }
        }
        return JSONWebKeySet(keys: keys.map(\.publicJWK))
    }

    /// The key that signs new tokens; made (once, whichever server gets there first) when there is none.
    func currentKey(at time: Date) async throws(APIError) -> SessionSigningKey {
        if let current = try await storage({ try await store.publishedSigningKeys(at: time) }).first(where: \.isCurrent)
        {
            return current
        }
        return try await storage { try await store.currentSigningKey(creatingIfNone: .generate(at: time)) }
    }

    /// The refresh token presented, checked for shape before it is looked up: `INVALID_REQUEST` when it is empty or
    /// longer than any refresh token (counted in Unicode scalars, as the document's `maxLength` counts; hashing at
    /// most 512 bytes); any other text is simply unknown.
    static func checked(_ token: String) throws(APIError) -> String {
        guard !token.isEmpty, token.unicodeScalars.count <= maximumRefreshTokenLength else {
            throw APIError.invalidRequest(
                "refreshToken must be the refresh token the session was issued with (1 to \(maximumRefreshTokenLength) characters)."
            )
        }
        return token
    }

    private func session(
        _ family: RefreshTokenFamily,
        signedWith key: SessionSigningKey,
        transactionDigest: String?,
        refreshToken: String,
        refreshExpiresAt: Date,
        at time: Date
    ) throws(APIError) -> IssuedSession {
        let lifetime = configuration.sessions.accessTokenSeconds
        let issuedAt = Int(time.timeIntervalSince1970)
        let claims = AccessTokenClaims(
            iss: configuration.sessionIssuer,
            sub: family.userID,
            aud: configuration.sessionAudience,
            clientID: configuration.rpId,
            iat: issuedAt,
            exp: issuedAt + lifetime,
            jti: Secrets.identifier(prefix: ""),
            sid: family.id,
            authTime: Int(family.authTime.timeIntervalSince1970),
            amr: family.methods,
            acr: family.assurance,
            txn: transactionDigest
        )
        let token: String
        do {
            token = try key.sign(payload: try JSONBody.encode(claims), type: "at+jwt")
        } catch {
            logger.error("access token cannot be signed", metadata: ["kid": "\(key.id)", "error": "\(error)"])
            throw APIError.unexpected
        }
        return IssuedSession(
            accessToken: token,
            tokenType: "Bearer",
            expiresIn: lifetime,
            refreshToken: refreshToken,
            refreshExpiresIn: max(0, Int(refreshExpiresAt.timeIntervalSince(time)))
        )
    }

    private func storageFailure(_ error: StoreError) -> APIError {
        logger.error("storage failure", metadata: ["error": "\(error)"])
        return error.code == .unavailable ? .storageUnavailable : .unexpected
    }
}

extension SessionSigningKey {
    /// Until when a key retired at `time` stays published: until every access token it signed has expired.
    static func publishedUntil(retiredAt time: Date, accessTokenSeconds: Int) -> Date {
        time.addingTimeInterval(TimeInterval(accessTokenSeconds) + SessionsFlow.publicationMargin)
    }
}
