import Crypto
import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

/// Token sessions over real HTTP on SQLite and PostgreSQL: a redemption that asks for one gets an access token that
/// verifies against `/.well-known/jwks.json`, and a refresh token that rotates on every use; a reused refresh token
/// revokes its session.
@Suite("Token sessions")
struct TokenSessionTests {
    @Test(
        "a redemption with issueSession gets an access token that verifies against the published keys",
        arguments: StoreKind.available
    )
    func issuedTokenVerifies(kind: StoreKind) async throws {
        try await kind.withLiveServer { server, api in
            var phone = TestAuthenticator()
            let credential = try await api.enroll("ada", authenticator: &phone)
            server.clock.advance(by: 5)
            let tokens = try await api.signInWithSession(userID: "ada", authenticator: &phone)
            #expect(tokens.tokenType == "Bearer")
            #expect(tokens.expiresIn == 600)
            #expect(tokens.refreshExpiresIn == 30 * 86_400)
            #expect(tokens.refreshToken.hasPrefix("pks_"))

            let keys = try await api.send(.get, "/.well-known/jwks.json")
            #expect(keys.headers[.cacheControl] == "public, max-age=300")
            #expect(keys.headers[.contentType] == "application/jwk-set+json")
            let published = try keys.expect(.ok, PublishedKeys.self)
            #expect(published.keys.count == 1)
            #expect(published.keys.first.map { [$0.kty, $0.crv, $0.alg, $0.use] } == ["EC", "P-256", "ES256", "sig"])
            let token = try VerifiedToken(tokens.accessToken, keys: published)
            #expect(token.header.typ == "at+jwt")
            let now = Int(server.clock.read().timeIntervalSince1970)
            #expect(token.claims.sub == "ada")
            #expect(token.claims.iss == server.origin)
            #expect(token.claims.aud == server.rpID)
            #expect(token.claims.client_id == server.rpID)
            #expect(token.claims.iat == now)
            #expect(token.claims.exp == now + 600)
            #expect(token.claims.auth_time == now)
            #expect(token.claims.amr == ["hwk", "user", "mfa"])
            #expect(token.claims.acr == "passkey+uv")
            #expect(token.claims.txn == nil)
            #expect(token.claims.sid.hasPrefix("sf_"))
            #expect(credential.credentialId.isEmpty == false)

            // A redemption without the flag gets no session.
            let session = try await api.startSignIn(userID: "ada")
            let options = try await api.authenticationOptions(session)
            let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                .expect(.ok, SignInCompletion.self)
            let plain = try await api.redeem(session, completion.resultToken).expect(.ok, RedeemedWithSession.self)
            #expect(plain.session == nil)
        }
    }

    @Test("a step-up's access token carries its transaction digest; the refreshed one does not")
    func stepUpDigest() async throws {
        try await StoreKind.sqlite.withLiveServer { _, api in
            var phone = TestAuthenticator()
            try await api.enroll("ada", authenticator: &phone)
            let session = try await api.backend(
                .post,
                "/v1/authentications",
                json: #"{"userId":"ada","mode":"stepUp","transaction":{"text":"Pay 10 EUR to Bob"}}"#
            ).expect(.created, AuthenticationSession.self)
            let options = try await api.authenticationOptions(session)
            let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                .expect(.ok, SignInCompletion.self)
            let redeemed = try await api.backend(
                .post,
                Path.redeem(session.biometricPasskeySessionId),
                body: RedeemWithSession(resultToken: completion.resultToken)
            ).expect(.ok, RedeemedWithSession.self)
            let tokens = try #require(redeemed.session)
            let keys = try await api.publishedKeys()
            let digest = Base64URL.encode(Array(Crypto.SHA256.hash(data: Array("Pay 10 EUR to Bob".utf8))))
            #expect(try VerifiedToken(tokens.accessToken, keys: keys).claims.txn == digest)
            let refreshed = try await api.refreshSession(tokens.refreshToken).expect(.ok, SessionTokens.self)
            #expect(try VerifiedToken(refreshed.accessToken, keys: keys).claims.txn == nil)
        }
    }

    @Test(
        "refreshing rotates the refresh token; reusing an old one revokes the session",
        arguments: StoreKind.available
    )
    func refreshRotatesAndReuseRevokes(kind: StoreKind) async throws {
        try await kind.withLiveServer { server, api in
            var phone = TestAuthenticator()
            try await api.enroll("ada", authenticator: &phone)
            let first = try await api.signInWithSession(userID: "ada", authenticator: &phone)
            let signedInAt = Int(server.clock.read().timeIntervalSince1970)
            server.clock.advance(by: 300)
            let second = try await api.refreshSession(first.refreshToken).expect(.ok, SessionTokens.self)
            #expect(second.refreshToken != first.refreshToken)
            let keys = try await api.publishedKeys()
            let before = try VerifiedToken(first.accessToken, keys: keys).claims
            let after = try VerifiedToken(second.accessToken, keys: keys).claims
            #expect(after.sid == before.sid)
            #expect(after.auth_time == signedInAt)
            #expect(after.iat == signedInAt + 300)
            #expect(after.amr == before.amr && after.acr == before.acr)
            #expect(after.jti != before.jti)
            server.clock.advance(by: 1)
            let third = try await api.refreshSession(second.refreshToken).expect(.ok, SessionTokens.self)

            // The first token again: a reuse. The session ends, so the newest token fails too.
            expectError(try await api.refreshSession(first.refreshToken), "REFRESH_TOKEN_REUSED", .unauthorized)
            expectError(try await api.refreshSession(third.refreshToken), "SESSION_REVOKED", .unauthorized)
            let actions = try await api.auditEvents().events.map(\.action)
            #expect(
                actions.filter { $0.hasPrefix("session.") } == [
                    "session.issued", "session.refreshed", "session.refreshed", "session.reuse-detected",
                ]
            )
        }
    }

    @Test("of two racing refreshes of one token, one wins and the session ends revoked", arguments: StoreKind.available)
    func racingRefreshes(kind: StoreKind) async throws {
        try await kind.withLiveServer { _, api in
            var phone = TestAuthenticator()
            try await api.enroll("ada", authenticator: &phone)
            let tokens = try await api.signInWithSession(userID: "ada", authenticator: &phone)
            async let one = api.refreshSession(tokens.refreshToken)
            async let two = api.refreshSession(tokens.refreshToken)
            let answers = try await [one, two]
            let winners = answers.filter { $0.status == .ok }
            #expect(winners.count == 1)
            for loser in answers where loser.status != .ok {
                expectError(loser, "REFRESH_TOKEN_REUSED", .unauthorized)
            }
            let won = try #require(winners.first).decode(SessionTokens.self)
            expectError(try await api.refreshSession(won.refreshToken), "SESSION_REVOKED", .unauthorized)
        }
    }

    @Test("revoking a session is idempotent and ends it", arguments: StoreKind.available)
    func revoke(kind: StoreKind) async throws {
        try await kind.withLiveServer { _, api in
            var phone = TestAuthenticator()
            try await api.enroll("ada", authenticator: &phone)
            let tokens = try await api.signInWithSession(userID: "ada", authenticator: &phone)
            for _ in 0..<2 {
                let answer = try await api.revokeSession(tokens.refreshToken)
                #expect(answer.status == .ok)
                #expect(answer.text == #"{"revoked":true}"#)
            }
            expectError(try await api.refreshSession(tokens.refreshToken), "SESSION_REVOKED", .unauthorized)
            expectError(try await api.revokeSession("pks_unknown"), "REFRESH_TOKEN_INVALID", .unauthorized)
            let actions = try await api.auditEvents().events.map(\.action)
            #expect(actions.filter { $0 == "session.revoked" }.count == 1)
        }
    }

    enum Reset: String, CaseIterable, Sendable {
        case revokeCredential, deleteUser
    }

    @Test("revoking the user's passkey or deleting the user ends their sessions", arguments: Reset.allCases)
    func resetEndsSessions(reset: Reset) async throws {
        try await StoreKind.sqlite.withLiveServer { _, api in
            var phone = TestAuthenticator()
            let credential = try await api.enroll("ada", authenticator: &phone)
            let tokens = try await api.signInWithSession(userID: "ada", authenticator: &phone)
            switch reset {
            case .revokeCredential:
                #expect(try await api.backend(.delete, Path.credential(credential.credentialId)).status == .noContent)
                expectError(try await api.refreshSession(tokens.refreshToken), "SESSION_REVOKED", .unauthorized)
            case .deleteUser:
                #expect(try await api.backend(.delete, "/v1/users/ada").status == .noContent)
                expectError(try await api.refreshSession(tokens.refreshToken), "REFRESH_TOKEN_INVALID", .unauthorized)
            }
        }
    }

    @Test("a rotated key stays published until the tokens it signed have expired", arguments: StoreKind.available)
    func keyRotation(kind: StoreKind) async throws {
        try await kind.withLiveServer { server, api in
            var phone = TestAuthenticator()
            try await api.enroll("ada", authenticator: &phone)
            let before = try await api.signInWithSession(userID: "ada", authenticator: &phone)
            let oldKey = try VerifiedToken(before.accessToken, keys: try await api.publishedKeys()).header.kid
            let rotation = try await SessionKeyRotation.rotate(
                in: server.store,
                at: server.clock.read(),
                accessTokenSeconds: 600
            )
            #expect(rotation.retiredKeyID == oldKey)
            let after = try await api.refreshSession(before.refreshToken).expect(.ok, SessionTokens.self)
            let both = try await api.publishedKeys()
            #expect(both.keys.map(\.kid) == [rotation.currentKeyID, oldKey])
            #expect(try VerifiedToken(after.accessToken, keys: both).header.kid == rotation.currentKeyID)
            #expect(try VerifiedToken(before.accessToken, keys: both).header.kid == oldKey)
            // Once every token the old key signed has expired (600 s and the margin), it is no longer published.
            server.clock.advance(by: 600 + 60)
            #expect(try await api.publishedKeys().keys.map(\.kid) == [rotation.currentKeyID])
        }
    }

    @Test(
        "malformed, oversized and unknown refresh tokens get stable codes",
        arguments: [
            (#"{}"#, "INVALID_REQUEST", HTTPResponse.Status.badRequest),
            (#"{"refreshToken":""}"#, "INVALID_REQUEST", .badRequest),
            (#"{"refreshToken":42}"#, "INVALID_REQUEST", .badRequest),
            ("not json", "INVALID_REQUEST", .badRequest),
            (#"{"refreshToken":"\#(String(repeating: "a", count: 129))"}"#, "INVALID_REQUEST", .badRequest),
            (#"{"refreshToken":"pks_AAAA"}"#, "REFRESH_TOKEN_INVALID", .unauthorized),
            // 128 characters of two bytes each: within the document's maxLength, which counts characters.
            (#"{"refreshToken":"\#(String(repeating: "é", count: 128))"}"#, "REFRESH_TOKEN_INVALID", .unauthorized),
            (#"{"refreshToken":"\#(String(repeating: "é", count: 129))"}"#, "INVALID_REQUEST", .badRequest),
        ]
    )
    func badInput(body: String, code: String, status: HTTPResponse.Status) async throws {
        try await StoreKind.sqlite.withLiveServer { _, api in
            for path in ["/v1/sessions/refresh", "/v1/sessions/revoke"] {
                expectError(try await api.send(.post, path, body: Array(body.utf8)), code, status)
            }
        }
    }

    @Test("refreshes count against the client address's request limit")
    func refreshesAreRateLimited() async throws {
        let limit: @Sendable (inout ServerConfiguration) -> Void = { $0.limits.clientRequestsPerMinute = 2 }
        try await StoreKind.sqlite.withLiveServer(configure: limit) { _, api in
            for _ in 0..<2 {
                expectError(try await api.refreshSession("pks_unknown"), "REFRESH_TOKEN_INVALID", .unauthorized)
            }
            let limited = try await api.revokeSession("pks_unknown")
            expectError(limited, "RATE_LIMITED", .tooManyRequests, retryable: true)
            #expect(limited.headers[.retryAfter] != nil)
        }
    }

    @Test("the key made at start is the one published and used; a failing store at start only postpones it")
    func keyAtStart() async throws {
        try await StoreKind.sqlite.withLiveServer { server, api in
            let kid = try #require(await server.service.prepareSessionSigningKey())
            #expect(await server.service.prepareSessionSigningKey() == kid)
            #expect(try await api.publishedKeys().keys.map(\.kid) == [kid])
            var phone = TestAuthenticator()
            try await api.enroll("ada", authenticator: &phone)
            let tokens = try await api.signInWithSession(userID: "ada", authenticator: &phone)
            #expect(try VerifiedToken(tokens.accessToken, keys: try await api.publishedKeys()).header.kid == kid)
        }
        let store = FailingStore()
        let failing = try TestServer(store: store)
        store.fail(with: StoreError(.unavailable, "database is locked"))
        #expect(await failing.service.prepareSessionSigningKey() == nil)
        store.fail(with: nil)
        #expect(await failing.service.prepareSessionSigningKey() != nil)
    }

    @Test("a refresh the database cannot serve is retryable and spends nothing")
    func refreshWhileTheDatabaseFails() async throws {
        let store = FailingStore()
        let server = try TestServer(store: store)
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("ada", authenticator: &phone)
            let tokens = try await api.signInWithSession(userID: "ada", authenticator: &phone)
            store.fail(with: StoreError(.unavailable, "database is locked"))
            expectError(
                try await api.refreshSession(tokens.refreshToken),
                "SERVICE_UNAVAILABLE",
                .serviceUnavailable,
                retryable: true
            )
            store.fail(with: nil)
            let refreshed = try await api.refreshSession(tokens.refreshToken).expect(.ok, SessionTokens.self)
            #expect(refreshed.refreshToken != tokens.refreshToken)
        }
    }

    @Test("a body over the size limit is refused before it is read")
    func oversizedBody() async throws {
        try await StoreKind.sqlite.withLiveServer { server, api in
            let limit = server.configuration.limits.maxRequestBodyBytes
            let body = #"{"refreshToken":""# + String(repeating: "a", count: limit) + #""}"#
            expectError(
                try await api.send(.post, "/v1/sessions/refresh", body: Array(body.utf8)),
                "PAYLOAD_TOO_LARGE",
                .contentTooLarge
            )
        }
    }
}
