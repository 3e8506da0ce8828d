import Foundation
import HTTPTypes
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

@testable import PasskeyServer

/// Registration with `finalize: "explicit"` (DESIGN §3 flow 1): the credential is reserved until the backend
/// finalizes or aborts it.
struct ExplicitFinalizeTests {
    static func finalizePath(_ id: String) -> String { "/v1/registrations/\(id)/finalize" }
    static func abortPath(_ id: String) -> String { "/v1/registrations/\(id)/abort" }

    /// Registers `authenticator` for alice under explicit finalize; returns the attempt and its finalize token.
    static func reserve(
        _ api: API,
        _ authenticator: inout TestAuthenticator,
        user: String = "alice"
    ) async throws -> ReservedAttempt {
        let attempt = try await api.createRegistration(NewRegistration(userId: user, finalize: "explicit"))
        let response = try api.registrationResponse(
            try await api.registrationOptions(attempt),
            authenticator: &authenticator
        )
        let credential = try await api.completeRegistration(attempt, response).expect(
            .created,
            ReservedCredentialView.self
        )
        #expect(credential.status == "reserved")
        let token = try #require(credential.finalizeToken, "complete of an explicit attempt returns a finalize token")
        #expect(token.hasPrefix("pkf_"))
        return ReservedAttempt(attempt: attempt, finalizeToken: token)
    }

    /// Finalizes (or aborts) a reserved attempt with its token, and `reason`.
    static func settle(
        _ api: API,
        _ path: (String) -> String,
        _ reserved: ReservedAttempt,
        token: String? = nil,
        reason: String? = nil
    ) async throws -> APIResponse {
        try await api.backend(
            .post,
            path(reserved.registrationAttemptId),
            body: SettleBody(finalizeToken: token ?? reserved.finalizeToken, reason: reason)
        )
    }

    @Test func finalizeActivatesTheReservedCredential() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let attempt = try await Self.reserve(api, &phone)
            let id = attempt.registrationAttemptId
            let before = try await api.backend(.get, Path.registration(id)).expect(.ok, RegistrationStatusView.self)
            #expect(before.status == "completed")
            #expect(before.finalize == "explicit")
            #expect(before.credential?.status == "reserved")
            // A reserved credential counts as the user's, but cannot sign in.
            #expect(try await api.credentials(of: "alice").map(\.status) == ["reserved"])
            expectError(
                try await api.backend(.post, "/v1/authentications", body: NewAuthentication(userId: "alice")),
                "NO_ACTIVE_CREDENTIALS",
                .conflict
            )

            let finalized = try await Self.settle(api, Self.finalizePath, attempt).expect(
                .ok,
                RegistrationStatusView.self
            )
            #expect(finalized.status == "finalized")
            #expect(finalized.credential?.status == "active")
            let result = try await api.signIn(userID: "alice", authenticator: &phone)
            #expect(result.credentialId == phone.credentialIDText)

            expectError(
                try await Self.settle(api, Self.finalizePath, attempt),
                "REGISTRATION_ATTEMPT_CONFLICT",
                .conflict
            )
            expectError(try await Self.settle(api, Self.abortPath, attempt), "REGISTRATION_ATTEMPT_CONFLICT", .conflict)
        }
    }

    @Test func abortReleasesTheReservedCredential() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let attempt = try await Self.reserve(api, &phone)
            let aborted = try await Self.settle(api, Self.abortPath, attempt).expect(.ok, RegistrationStatusView.self)
            #expect(aborted.status == "aborted")
            #expect(aborted.credential == nil)
            expectError(
                try await api.backend(.get, Path.credential(phone.credentialIDText)),
                "CREDENTIAL_NOT_FOUND",
                .notFound
            )
            #expect(try await api.credentials(of: "alice").isEmpty)
            expectError(try await Self.settle(api, Self.abortPath, attempt), "REGISTRATION_ATTEMPT_CONFLICT", .conflict)
            expectError(
                try await Self.settle(api, Self.finalizePath, attempt),
                "REGISTRATION_ATTEMPT_CONFLICT",
                .conflict
            )
            // The same authenticator can register again.
            try await api.enroll("alice", authenticator: &phone)
        }
    }

    @Test func aReservationNotFinalizedInTimeExpires() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let attempt = try await Self.reserve(api, &phone)
            server.clock.advance(by: 601)
            expectError(try await Self.settle(api, Self.finalizePath, attempt), "RESERVATION_EXPIRED", .gone)
            expectError(try await Self.settle(api, Self.abortPath, attempt), "REGISTRATION_ATTEMPT_CONFLICT", .conflict)
            #expect(try await api.credentials(of: "alice").isEmpty)

            // The released credential neither counts nor is excluded from a new registration.
            let next = try await api.registrationOptions(
                try await api.createRegistration(NewRegistration(userId: "alice"))
            )
            #expect(next.excludeCredentials ?? [] == [])
            var laptop = TestAuthenticator()
            try await api.enroll("alice", authenticator: &laptop)
            #expect(try await api.credentials(of: "alice").map(\.credentialId) == [laptop.credentialIDText])
        }
    }

    @Test func theSameAuthenticatorRegistersAgainOnceItsReservationExpired() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let first = try await Self.reserve(api, &phone)
            let firstID = first.registrationAttemptId
            let reserved = try await api.backend(.get, Path.registration(firstID)).expect(
                .ok,
                RegistrationStatusView.self
            )
            server.clock.advance(by: 601)

            // The expired reservation is replaced: same credential id, its default name free again.
            let again = try await api.enroll("alice", authenticator: &phone)
            #expect(again.credentialId == phone.credentialIDText)
            #expect(again.status == "active")
            #expect(again.name == reserved.credential?.name)
            #expect(try await api.credentials(of: "alice").map(\.credentialId) == [phone.credentialIDText])

            // The first attempt has nothing left to settle, and does not show the credential that replaced it.
            expectError(try await Self.settle(api, Self.finalizePath, first), "RESERVATION_EXPIRED", .gone)
            expectError(try await Self.settle(api, Self.abortPath, first), "REGISTRATION_ATTEMPT_CONFLICT", .conflict)
            let status = try await api.backend(.get, Path.registration(firstID)).expect(
                .ok,
                RegistrationStatusView.self
            )
            #expect(status.status == "completed")
            #expect(status.credential == nil)
            let result = try await api.signIn(userID: "alice", authenticator: &phone)
            #expect(result.credentialId == phone.credentialIDText)
        }
    }

    @Test func aLiveReservationIsNotReplaced() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let first = try await Self.reserve(api, &phone)
            server.clock.advance(by: 599)
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            let options = try await api.registrationOptions(attempt)
            expectError(
                try await api.completeRegistration(
                    attempt,
                    try api.registrationResponse(options, authenticator: &phone)
                ),
                "CREDENTIAL_ALREADY_REGISTERED",
                .conflict
            )
            let finalized = try await Self.settle(api, Self.finalizePath, first).expect(
                .ok,
                RegistrationStatusView.self
            )
            #expect(finalized.credential?.status == "active")
        }
    }

    @Test func aLiveReservationCountsTowardTheLimit() async throws {
        let server = try TestServer { $0.policy.maxCredentialsPerUser = 1 }
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            _ = try await Self.reserve(api, &phone)
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            var laptop = TestAuthenticator()
            let options = try await api.registrationOptions(attempt)
            #expect(options.excludeCredentials?.map(\.id.bytes) == [phone.credentialID])
            expectError(
                try await api.completeRegistration(
                    attempt,
                    try api.registrationResponse(options, authenticator: &laptop)
                ),
                "MAX_CREDENTIALS_REACHED",
                .conflict
            )
        }
    }

    @Test func onlyExplicitAttemptsWithACredentialCanBeSettled() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let automatic = try await api.createRegistration(NewRegistration(userId: "alice"))
            _ = try await api.completeRegistration(
                automatic,
                try api.registrationResponse(try await api.registrationOptions(automatic), authenticator: &phone)
            ).expect(.created, CredentialView.self)
            expectError(
                try await api.backend(.post, Self.finalizePath(automatic.registrationAttemptId)),
                "REGISTRATION_ATTEMPT_CONFLICT",
                .conflict
            )
            expectError(
                try await api.backend(.post, Self.abortPath(automatic.registrationAttemptId)),
                "REGISTRATION_ATTEMPT_CONFLICT",
                .conflict
            )

            let pending = try await api.createRegistration(NewRegistration(userId: "alice", finalize: "explicit"))
            expectError(
                try await api.backend(.post, Self.finalizePath(pending.registrationAttemptId)),
                "REGISTRATION_ATTEMPT_CONFLICT",
                .conflict
            )
            expectError(
                try await api.backend(.post, Self.abortPath(pending.registrationAttemptId)),
                "REGISTRATION_ATTEMPT_CONFLICT",
                .conflict
            )

            expectError(try await api.backend(.post, Self.finalizePath("reg_unknown")), "NOT_FOUND", .notFound)
            expectError(try await api.backend(.post, Self.abortPath("reg_unknown")), "NOT_FOUND", .notFound)
            // An authentication session is not a registration attempt.
            let session = try await api.startSignIn(userID: "alice")
            expectError(
                try await api.backend(.post, Self.finalizePath(session.biometricPasskeySessionId)),
                "NOT_FOUND",
                .notFound
            )
            expectError(
                try await api.backend(.get, Path.registration(session.biometricPasskeySessionId)),
                "NOT_FOUND",
                .notFound
            )
        }
    }

    @Test func finalizeAndAbortRequireTheFinalizeTokenOfTheAttempt() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let attempt = try await Self.reserve(api, &phone)
            var laptop = TestAuthenticator()
            let other = try await Self.reserve(api, &laptop)
            let id = attempt.registrationAttemptId
            for path in [Self.finalizePath, Self.abortPath] {
                // No body (as clients before finalize tokens), an empty object, another attempt's token, a wrong one.
                expectError(try await api.backend(.post, path(id)), "FINALIZE_TOKEN_INVALID", .forbidden)
                expectError(try await api.backend(.post, path(id), json: "{}"), "FINALIZE_TOKEN_INVALID", .forbidden)
                expectError(
                    try await Self.settle(api, path, attempt, token: other.finalizeToken),
                    "FINALIZE_TOKEN_INVALID",
                    .forbidden
                )
                expectError(
                    try await Self.settle(api, path, attempt, token: "pkf_wrong"),
                    "FINALIZE_TOKEN_INVALID",
                    .forbidden
                )
            }
            let status = try await api.backend(.get, Path.registration(id)).expect(.ok, RegistrationStatusView.self)
            #expect(status.status == "completed", "a refused finalize or abort changes nothing")
            #expect(status.credential?.status == "reserved")
            #expect(try await Self.settle(api, Self.finalizePath, attempt).status == .ok)
            #expect(try await Self.settle(api, Self.abortPath, other).status == .ok)
        }
    }

    /// A body the OpenAPI document refuses is refused first, whatever state the attempt is in: finalize refuses a
    /// `reason` key even when it is `null` (that once reached a cancelled attempt's 410).
    @Test func aBodyTheDocumentRefusesIsRefusedBeforeTheAttemptIsLookedAt() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice", finalize: "explicit"))
            let id = attempt.registrationAttemptId
            _ = try await api.backend(.post, "/v1/registrations/\(id)/cancel").expect(.ok, RegistrationStatusView.self)
            for body in [#"{"reason":null}"#, #"{"reason":"IDP_COMMIT_FAILED"}"#, #"{"finalizeToken":7}"#] {
                expectError(
                    try await api.backend(.post, Self.finalizePath(id), json: body),
                    "INVALID_REQUEST",
                    .badRequest
                )
            }
            for body in [#"{"reason":"SOMETHING_ELSE"}"#, #"{"finalizeToken":7}"#] {
                expectError(
                    try await api.backend(.post, Self.abortPath(id), json: body),
                    "INVALID_REQUEST",
                    .badRequest
                )
            }
            // Elsewhere a key given as `null` counts as left out, so these reach the attempt.
            for body in [#"{"reason":null,"finalizeToken":null}"#, "{}"] {
                expectError(
                    try await api.backend(.post, Self.abortPath(id), json: body),
                    "REGISTRATION_ATTEMPT_CANCELLED",
                    .gone
                )
            }
        }
    }

    @Test func anAbortForTheIdentityProviderIsReportedToTheBackendAndTheApp() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let attempt = try await Self.reserve(api, &phone)
            expectError(
                try await Self.settle(api, Self.abortPath, attempt, reason: "SOMETHING_ELSE"),
                "INVALID_REQUEST",
                .badRequest
            )
            expectError(
                try await Self.settle(api, Self.finalizePath, attempt, reason: "IDP_COMMIT_FAILED"),
                "INVALID_REQUEST",
                .badRequest
            )
            let aborted = try await Self.settle(api, Self.abortPath, attempt, reason: "IDP_COMMIT_FAILED").expect(
                .ok,
                RegistrationStatusView.self
            )
            #expect(aborted.status == "aborted")
            #expect(aborted.reason == "IDP_COMMIT_FAILED")
            #expect(aborted.credential == nil)
            let status = try await api.backend(.get, Path.registration(attempt.registrationAttemptId)).expect(
                .ok,
                RegistrationStatusView.self
            )
            #expect(status.reason == "IDP_COMMIT_FAILED")
            #expect(try await api.credentials(of: "alice").isEmpty, "the refused passkey is removed")
            expectError(try await Self.settle(api, Self.finalizePath, attempt), "IDP_COMMIT_FAILED", .conflict)
            // The app asking again on the attempt is told why.
            expectError(
                try await api.client(
                    .post,
                    Path.registrationOptions(attempt.registrationAttemptId),
                    token: attempt.attempt.clientToken
                ),
                "IDP_COMMIT_FAILED",
                .conflict
            )
            let audit = try await server.service.context.store.auditEvents(after: 0, limit: 100, userID: "alice")
            #expect(
                audit.contains { $0.action == "registration.aborted" && $0.details["reason"] == "IDP_COMMIT_FAILED" }
            )
        }
    }

    @Test func anAbortWithoutAReasonIsAnAbortEndedByTheBackend() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let attempt = try await Self.reserve(api, &phone)
            let aborted = try await Self.settle(api, Self.abortPath, attempt).expect(.ok, RegistrationStatusView.self)
            #expect(aborted.reason == nil)
            expectError(
                try await api.client(
                    .post,
                    Path.registrationOptions(attempt.registrationAttemptId),
                    token: attempt.attempt.clientToken
                ),
                "FLOW_ENDED",
                .gone
            )
        }
    }
}

/// An attempt reserved under explicit finalize, with the finalize token its completion returned.
struct ReservedAttempt: Sendable {
    let attempt: RegistrationAttempt
    let finalizeToken: String
    var registrationAttemptId: String { attempt.registrationAttemptId }
}

/// The body of finalize and abort.
struct SettleBody: Encodable, Sendable {
    let finalizeToken: String?
    let reason: String?
}

/// The answer of `complete` under explicit finalize.
struct ReservedCredentialView: Decodable, Sendable {
    let status: String
    let finalizeToken: String?
}
