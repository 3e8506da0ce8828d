import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// How a sign-in completion is refused: challenge lifecycle, the WebAuthn checks, and the credential's state.
struct SignInVerificationTests {
    @Test func aChallengeCompletesOnce() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let (session, options) = try await api.signInSession(userID: "alice")
            let response = api.assertion(options, authenticator: &phone)
            #expect(try await api.completeSignIn(session, response).status == .ok)
            expectError(
                try await api.completeSignIn(session, response),
                "CHALLENGE_CONSUMED",
                .conflict,
                retryable: false
            )
        }
    }

    @Test func anExpiredChallengeIsRefusedAndNewOptionsWork() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let (session, options) = try await api.signInSession(userID: "alice")
            server.clock.advance(by: 121)
            expectError(
                try await api.completeSignIn(session, api.assertion(options, authenticator: &phone)),
                "CHALLENGE_EXPIRED",
                .gone,
                retryable: true
            )
            let fresh = try await api.authenticationOptions(session)
            #expect(try await api.completeSignIn(session, api.assertion(fresh, authenticator: &phone)).status == .ok)
        }
    }

    @Test func aRegistrationChallengeExpiresToo() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            var phone = TestAuthenticator()
            let response = try api.registrationResponse(
                try await api.registrationOptions(attempt),
                authenticator: &phone
            )
            server.clock.advance(by: 121)
            expectError(
                try await api.completeRegistration(attempt, response),
                "CHALLENGE_EXPIRED",
                .gone,
                retryable: true
            )
        }
    }

    @Test func aChallengeThatWasNotIssuedIsAMismatch() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)

            // Completing before any options were issued.
            let early = try await api.startSignIn(userID: "alice")
            let guessed = phone.authenticationResponse(
                challenge: Array(repeating: 7, count: 32),
                origin: server.origin,
                rpID: server.rpID
            )
            expectError(try await api.completeSignIn(early, guessed), "CHALLENGE_MISMATCH", .badRequest)

            // Another challenge than the one issued.
            let (session, stale) = try await api.signInSession(userID: "alice")
            expectError(try await api.completeSignIn(session, guessed), "CHALLENGE_MISMATCH", .badRequest)
            // Options replaced by newer ones: the older challenge no longer counts.
            let current = try await api.authenticationOptions(session)
            expectError(
                try await api.completeSignIn(session, api.assertion(stale, authenticator: &phone)),
                "CHALLENGE_MISMATCH",
                .badRequest
            )
            // An empty challenge.
            let empty = phone.authenticationResponse(challenge: [], origin: server.origin, rpID: server.rpID)
            expectError(try await api.completeSignIn(session, empty), "CHALLENGE_MISMATCH", .badRequest)
            // None of that spent the current challenge.
            #expect(try await api.completeSignIn(session, api.assertion(current, authenticator: &phone)).status == .ok)
        }
    }

    /// A sign-in response that fails verification, and the code it gets.
    struct Rejection: Sendable, CustomTestStringConvertible {
        let name: String
        let code: String
        var status: HTTPResponse.Status = .badRequest
        var flags: AuthenticatorDataFlags = [.userPresent, .userVerified]
        var modify: @Sendable (inout AuthenticatorDataBuilder, inout ClientDataBuilder) -> Void = { _, _ in }
        var tamper: @Sendable (inout AuthenticationResponseJSON) -> Void = { _ in }
        var testDescription: String { "\(name) → \(code)" }
    }

    static let rejections: [Rejection] = [
        Rejection(
            name: "another origin",
            code: "ORIGIN_NOT_ALLOWED",
            modify: { _, clientData in clientData.origin = "https://localhost.evil.example" }
        ),
        Rejection(
            name: "an embedding top origin",
            code: "ORIGIN_NOT_ALLOWED",
            modify: { _, clientData in clientData.topOrigin = "https://evil.example" }
        ),
        Rejection(
            name: "another RP ID hash",
            code: "RP_ID_MISMATCH",
            modify: { authenticatorData, _ in
                authenticatorData.rpIDHash = AuthenticatorDataBuilder(rpID: "example.com").rpIDHash
            }
        ),
        Rejection(
            name: "a registration response",
            code: "CEREMONY_TYPE_MISMATCH",
            modify: { _, clientData in clientData.type = "webauthn.create" }
        ),
        Rejection(name: "no UP flag", code: "USER_PRESENCE_REQUIRED", flags: [.userVerified]),
        Rejection(
            name: "a broken signature",
            code: "ASSERTION_INVALID",
            tamper: { response in
                response.response.signature.bytes[response.response.signature.bytes.count / 2] ^= 0x01
            }
        ),
        Rejection(
            name: "signed other data",
            code: "ASSERTION_INVALID",
            tamper: { response in
                response.response.clientDataJSON.bytes.insert(0x20, at: 1)
            }
        ),
        Rejection(
            name: "a changed backup eligibility",
            code: "ASSERTION_INVALID",
            flags: [.userPresent, .userVerified, .backupEligible]
        ),
        Rejection(
            name: "an unknown credential",
            code: "CREDENTIAL_NOT_FOUND",
            status: .notFound,
            tamper: { response in
                response.rawId = Base64URLBytes(Array(repeating: 1, count: 32))
                response.id = response.rawId.base64URL
            }
        ),
        Rejection(
            name: "id differing from rawId",
            code: "INVALID_REQUEST",
            tamper: { response in response.id = "AAAA" }
        ),
        Rejection(
            name: "an attestation object",
            code: "INVALID_REQUEST",
            tamper: { response in response.response.attestationObject = [0xA0] }
        ),
    ]

    @Test(arguments: rejections)
    func aResponseThatDoesNotVerifyIsRefusedAndTheSessionCanBeRetried(_ rejection: Rejection) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            for userID in ["alice", nil] {
                let (session, options) = try await api.signInSession(userID: userID)
                var response = phone.authenticationResponse(
                    challenge: options.challenge.bytes,
                    origin: server.origin,
                    rpID: server.rpID,
                    flags: rejection.flags,
                    modify: rejection.modify
                )
                rejection.tamper(&response)
                expectError(
                    try await api.completeSignIn(session, response),
                    rejection.code,
                    rejection.status,
                    retryable: false
                )

                let retry = try await api.authenticationOptions(session)
                let completion = try await api.completeSignIn(session, api.assertion(retry, authenticator: &phone))
                    .expect(.ok, SignInCompletion.self)
                #expect(try await api.redeem(session, completion.resultToken).status == .ok)
            }
        }
    }

    @Test func aRevokedPasskeyIsInactive() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            var laptop = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            try await api.enroll("alice", authenticator: &laptop)
            // A sign-in opened after the revocation (one opened before it ends with it: `UserResetTests`).
            #expect(try await api.backend(.delete, Path.credential(phone.credentialIDText)).status == .noContent)
            let (session, options) = try await api.signInSession(userID: "alice")
            expectError(
                try await api.completeSignIn(session, api.assertion(options, authenticator: &phone)),
                "CREDENTIAL_INACTIVE",
                .forbidden
            )
            let (usernameless, usernamelessOptions) = try await api.signInSession(userID: nil)
            expectError(
                try await api.completeSignIn(usernameless, api.assertion(usernamelessOptions, authenticator: &phone)),
                "CREDENTIAL_INACTIVE",
                .forbidden
            )
        }
    }

    @Test func aReservedPasskeyIsInactiveUntilFinalized() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            _ = try await ExplicitFinalizeTests.reserve(api, &phone)
            let (session, options) = try await api.signInSession(userID: nil)
            expectError(
                try await api.completeSignIn(session, api.assertion(options, authenticator: &phone)),
                "CREDENTIAL_INACTIVE",
                .forbidden
            )
        }
    }

    @Test func aCounterThatGoesBackSuggestsAClone() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let clone = phone
            _ = try await api.signIn(userID: "alice", authenticator: &phone)
            _ = try await api.signIn(userID: "alice", authenticator: &phone)

            var copy = clone
            let (session, options) = try await api.signInSession(userID: "alice")
            expectError(
                try await api.completeSignIn(session, api.assertion(options, authenticator: &copy)),
                "CREDENTIAL_CLONE_SUSPECTED",
                .badRequest
            )
            let events = try await api.auditEvents().events
            let suspicion = try #require(events.first { $0.action == "credential.clone_suspected" })
            #expect(suspicion.subject == phone.credentialIDText)
            #expect(suspicion.userId == "alice")

            // The real authenticator, ahead of the stored counter, still signs in.
            _ = try await api.signIn(userID: "alice", authenticator: &phone)
        }
    }

    @Test func aCounterRegressionIsOnlyReportedWhenThePolicySaysSo() async throws {
        let server = try TestServer { $0.policy.signCount = .report }
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            var clone = phone
            _ = try await api.signIn(userID: "alice", authenticator: &phone)
            _ = try await api.signIn(userID: "alice", authenticator: &clone)
            let completed = try #require(
                try await api.auditEvents().events.last { $0.action == "authentication.completed" }
            )
            #expect(completed.details["signCountRegressed"] == "true")
        }
    }

    @Test func authenticatorsThatAlwaysReportZeroAreAccepted() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            for _ in 0..<2 {
                let (session, options) = try await api.signInSession(userID: "alice")
                let response = phone.authenticationResponse(
                    challenge: options.challenge.bytes,
                    origin: server.origin,
                    rpID: server.rpID,
                    incrementCounter: false
                )
                #expect(try await api.completeSignIn(session, response).status == .ok)
            }
        }
    }
}
