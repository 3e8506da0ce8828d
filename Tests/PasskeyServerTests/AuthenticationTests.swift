import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// Flows 2 and 3 of DESIGN §3: sign-in with and without a username, step-up, and redeeming the result once.
struct AuthenticationTests {
    @Test func signsInWithAUsername() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            var laptop = TestAuthenticator()
            var revoked = TestAuthenticator()
            var bobs = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            try await api.enroll("alice", authenticator: &laptop)
            try await api.enroll("alice", authenticator: &revoked)
            try await api.enroll("bob", authenticator: &bobs)
            #expect(try await api.backend(.delete, Path.credential(revoked.credentialIDText)).status == .noContent)

            let session = try await api.startSignIn(userID: "alice", action: "login")
            #expect(session.biometricPasskeySessionId.hasPrefix("auth_"))
            let options = try await api.authenticationOptions(session)
            #expect(options.rpId == "localhost")
            #expect(options.timeout == 120_000)
            #expect(options.userVerification == .preferred)
            #expect(options.challenge.bytes.count >= 16)
            // Only alice's active credentials are offered.
            #expect(Set(options.allowCredentials?.map(\.id.bytes) ?? []) == [phone.credentialID, laptop.credentialID])

            let completed = try await api.completeSignIn(session, api.assertion(options, authenticator: &laptop))
            let completion = try completed.expect(.ok, SignInCompletion.self)
            #expect(completion.resultToken.hasPrefix("pkr_"))

            let result = try await api.redeem(session, completion.resultToken).expect(.ok, SignInResult.self)
            #expect(result.userId == "alice")
            #expect(result.credentialId == laptop.credentialIDText)
            #expect(result.userVerified)
            #expect(!result.backupEligible && !result.backupState)
            #expect(result.mode == "standard")
            #expect(result.action == "login")

            // The credential's use was recorded.
            let credential = try await api.backend(.get, Path.credential(laptop.credentialIDText)).expect(
                .ok,
                CredentialView.self
            )
            #expect(credential.lastUsedAt != nil)
        }
    }

    @Test func signsInWithoutAUsername() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            var bobs = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            try await api.enroll("bob", authenticator: &bobs)

            let (session, options) = try await api.signInSession(userID: nil)
            #expect(options.allowCredentials ?? [] == [])
            let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &bobs)).expect(
                .ok,
                SignInCompletion.self
            )
            let result = try await api.redeem(session, completion.resultToken).expect(.ok, SignInResult.self)
            #expect(result.userId == "bob")
            #expect(result.credentialId == bobs.credentialIDText)

            #expect(try await api.signIn(userID: nil, authenticator: &phone).userId == "alice")
        }
    }

    @Test func aUsernamelessSignInNeedsTheUserHandleOfTheCredentialsOwner() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            var bobs = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            try await api.enroll("bob", authenticator: &bobs)

            // Alice's credential claiming bob's user handle.
            var (session, options) = try await api.signInSession(userID: nil)
            var impostor = phone
            impostor.userHandle = bobs.userHandle
            expectError(
                try await api.completeSignIn(session, api.assertion(options, authenticator: &impostor)),
                "ASSERTION_INVALID",
                .badRequest
            )

            // No user handle at all.
            (session, options) = try await api.signInSession(userID: nil)
            let anonymous = phone.authenticationResponse(
                challenge: options.challenge.bytes,
                origin: server.origin,
                rpID: server.rpID,
                includeUserHandle: false
            )
            expectError(try await api.completeSignIn(session, anonymous), "ASSERTION_INVALID", .badRequest)
        }
    }

    @Test func stepUpRequiresUserVerification() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)

            let (session, options) = try await api.signInSession(userID: "alice", mode: "stepUp")
            #expect(options.userVerification == .required)
            let presentOnly = api.assertion(options, authenticator: &phone, flags: [.userPresent])
            expectError(try await api.completeSignIn(session, presentOnly), "USER_VERIFICATION_REQUIRED", .badRequest)

            // A step-up signs one challenge: no second one for the same session, but a new session completes.
            expectError(
                try await api.client(
                    .post,
                    Path.authenticationOptions(session.biometricPasskeySessionId),
                    token: session.clientToken
                ),
                "CHALLENGE_REFRESH_FORBIDDEN",
                .conflict
            )
            let (retrySession, retry) = try await api.signInSession(userID: "alice", mode: "stepUp")
            let completion = try await api.completeSignIn(retrySession, api.assertion(retry, authenticator: &phone))
                .expect(
                    .ok,
                    SignInCompletion.self
                )
            let result = try await api.redeem(retrySession, completion.resultToken).expect(.ok, SignInResult.self)
            #expect(result.mode == "stepUp")
            #expect(result.userVerified)
        }
    }

    @Test func standardModeAcceptsAnUnverifiedUserAndSaysSo() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let (session, options) = try await api.signInSession(userID: "alice")
            let completion = try await api.completeSignIn(
                session,
                api.assertion(options, authenticator: &phone, flags: [.userPresent])
            )
            .expect(.ok, SignInCompletion.self)
            #expect(
                try await api.redeem(session, completion.resultToken).expect(.ok, SignInResult.self).userVerified
                    == false
            )
        }
    }

    @Test func stepUpNeedsAUserAndAKnownMode() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            expectError(
                try await api.backend(
                    .post,
                    "/v1/authentications",
                    body: NewAuthentication(userId: nil, mode: "stepUp")
                ),
                "INVALID_REQUEST",
                .badRequest
            )
            expectError(
                try await api.backend(
                    .post,
                    "/v1/authentications",
                    body: NewAuthentication(userId: "alice", mode: "admin")
                ),
                "INVALID_REQUEST",
                .badRequest
            )
        }
    }

    @Test func stepUpWithAnotherUsersPasskeyIsRefused() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            var bobs = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            try await api.enroll("bob", authenticator: &bobs)

            let (stepUp, stepUpOptions) = try await api.signInSession(userID: "alice", mode: "stepUp")
            expectError(
                try await api.completeSignIn(stepUp, api.assertion(stepUpOptions, authenticator: &bobs)),
                "STEP_UP_CREDENTIAL_USER_MISMATCH",
                .forbidden
            )
            // In a standard sign-in for alice, bob's passkey is simply not one of hers.
            let (standard, standardOptions) = try await api.signInSession(userID: "alice")
            expectError(
                try await api.completeSignIn(standard, api.assertion(standardOptions, authenticator: &bobs)),
                "CREDENTIAL_NOT_FOUND",
                .notFound
            )
        }
    }

    @Test func aResultIsRedeemedOnce() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let (session, options) = try await api.signInSession(userID: "alice")
            expectError(try await api.redeem(session, "pkr_not-yet"), "AUTHENTICATION_NOT_COMPLETED", .conflict)
            let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                .expect(.ok, SignInCompletion.self)

            expectError(try await api.redeem(session, completion.resultToken + "x"), "INVALID_RESULT_TOKEN", .forbidden)
            expectError(
                try await api.redeem(session, "pkr_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
                "INVALID_RESULT_TOKEN",
                .forbidden
            )
            #expect(try await api.redeem(session, completion.resultToken).status == .ok)
            expectError(try await api.redeem(session, completion.resultToken), "RESULT_ALREADY_REDEEMED", .conflict)
            expectError(try await api.redeem(session, "pkr_other"), "RESULT_ALREADY_REDEEMED", .conflict)
            // Another session's token does not redeem this one.
            let (other, otherOptions) = try await api.signInSession(userID: "alice")
            let otherCompletion = try await api.completeSignIn(
                other,
                api.assertion(otherOptions, authenticator: &phone)
            ).expect(.ok, SignInCompletion.self)
            expectError(
                try await api.redeem(session, otherCompletion.resultToken),
                "RESULT_ALREADY_REDEEMED",
                .conflict
            )
            expectError(
                try await api.redeem(
                    AuthenticationSession(copying: other, id: "auth_unknown"),
                    otherCompletion.resultToken
                ),
                "NOT_FOUND",
                .notFound
            )
        }
    }

    @Test func anUnredeemedResultExpires() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let (session, options) = try await api.signInSession(userID: "alice")
            let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                .expect(.ok, SignInCompletion.self)
            server.clock.advance(by: 61)
            expectError(try await api.redeem(session, completion.resultToken), "INVALID_OR_EXPIRED_SESSION", .gone)
        }
    }

    @Test func anExpiredOrFinishedSessionIssuesNoOptions() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)

            let expiring = try await api.startSignIn(userID: "alice")
            server.clock.advance(by: 301)
            expectError(
                try await api.client(
                    .post,
                    Path.authenticationOptions(expiring.biometricPasskeySessionId),
                    token: expiring.clientToken
                ),
                "INVALID_OR_EXPIRED_SESSION",
                .gone
            )

            let (session, options) = try await api.signInSession(userID: "alice")
            let response = api.assertion(options, authenticator: &phone)
            _ = try await api.completeSignIn(session, response).expect(.ok, SignInCompletion.self)
            expectError(
                try await api.client(
                    .post,
                    Path.authenticationOptions(session.biometricPasskeySessionId),
                    token: session.clientToken
                ),
                "INVALID_OR_EXPIRED_SESSION",
                .gone
            )
            server.clock.advance(by: 301)
            expectError(try await api.completeSignIn(session, response), "INVALID_OR_EXPIRED_SESSION", .gone)
        }
    }

    @Test func aUserWithoutActivePasskeysCannotSignIn() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let session = try await api.startSignIn(userID: "alice")
            #expect(try await api.backend(.delete, Path.credential(phone.credentialIDText)).status == .noContent)
            expectError(
                try await api.client(
                    .post,
                    Path.authenticationOptions(session.biometricPasskeySessionId),
                    token: session.clientToken
                ),
                "NO_ACTIVE_CREDENTIALS",
                .conflict
            )
            expectError(
                try await api.backend(.post, "/v1/authentications", body: NewAuthentication(userId: "alice")),
                "NO_ACTIVE_CREDENTIALS",
                .conflict
            )
            // A user the server never saw is not found.
            expectError(
                try await api.backend(.post, "/v1/authentications", body: NewAuthentication(userId: "nobody")),
                "NOT_FOUND",
                .notFound
            )
        }
    }

    @Test func aRegistrationAttemptIsNotASignInSession() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            expectError(
                try await api.backend(
                    .post,
                    Path.redeem(attempt.registrationAttemptId),
                    body: Redeem(resultToken: "pkr_x")
                ),
                "NOT_FOUND",
                .notFound
            )
        }
    }
}

extension AuthenticationSession {
    init(copying session: AuthenticationSession, id: String) {
        self.init(biometricPasskeySessionId: id, clientToken: session.clientToken, expiresAt: session.expiresAt)
    }
}
