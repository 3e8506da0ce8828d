import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// Registration with `finalize: "explicit"` (DESIGN §3 flow 1): the credential is reserved until the backend
/// finalizes or aborts it.
struct ExplicitFinalizeTests {
    static func finalizePath(_ id: String) -> String { "/v1/registrations/\(id)/finalize" }
    static func abortPath(_ id: String) -> String { "/v1/registrations/\(id)/abort" }

    /// Registers `authenticator` for alice under explicit finalize; returns the attempt.
    static func reserve(
        _ api: API,
        _ authenticator: inout TestAuthenticator,
        user: String = "alice"
    ) async throws -> RegistrationAttempt {
        let attempt = try await api.createRegistration(NewRegistration(userId: user, finalize: "explicit"))
        let response = try api.registrationResponse(
            try await api.registrationOptions(attempt),
            authenticator: &authenticator
        )
        let credential = try await api.completeRegistration(attempt, response).expect(.created, CredentialView.self)
        #expect(credential.status == "reserved")
        return attempt
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

            let finalized = try await api.backend(.post, Self.finalizePath(id)).expect(.ok, RegistrationStatusView.self)
            #expect(finalized.status == "finalized")
            #expect(finalized.credential?.status == "active")
            let result = try await api.signIn(userID: "alice", authenticator: &phone)
            #expect(result.credentialId == phone.credentialIDText)

            expectError(try await api.backend(.post, Self.finalizePath(id)), "REGISTRATION_ATTEMPT_CONFLICT", .conflict)
            expectError(try await api.backend(.post, Self.abortPath(id)), "REGISTRATION_ATTEMPT_CONFLICT", .conflict)
        }
    }

    @Test func abortReleasesTheReservedCredential() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let attempt = try await Self.reserve(api, &phone)
            let aborted = try await api.backend(.post, Self.abortPath(attempt.registrationAttemptId)).expect(
                .ok,
                RegistrationStatusView.self
            )
            #expect(aborted.status == "aborted")
            #expect(aborted.credential == nil)
            expectError(
                try await api.backend(.get, Path.credential(phone.credentialIDText)),
                "CREDENTIAL_NOT_FOUND",
                .notFound
            )
            #expect(try await api.credentials(of: "alice").isEmpty)
            expectError(
                try await api.backend(.post, Self.abortPath(attempt.registrationAttemptId)),
                "REGISTRATION_ATTEMPT_CONFLICT",
                .conflict
            )
            expectError(
                try await api.backend(.post, Self.finalizePath(attempt.registrationAttemptId)),
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
            expectError(
                try await api.backend(.post, Self.finalizePath(attempt.registrationAttemptId)),
                "RESERVATION_EXPIRED",
                .gone
            )
            expectError(
                try await api.backend(.post, Self.abortPath(attempt.registrationAttemptId)),
                "REGISTRATION_ATTEMPT_CONFLICT",
                .conflict
            )
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
            expectError(try await api.backend(.post, Self.finalizePath(firstID)), "RESERVATION_EXPIRED", .gone)
            expectError(
                try await api.backend(.post, Self.abortPath(firstID)),
                "REGISTRATION_ATTEMPT_CONFLICT",
                .conflict
            )
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
            let finalized = try await api.backend(.post, Self.finalizePath(first.registrationAttemptId)).expect(
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
}
