import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

/// When the database fails: `SERVICE_UNAVAILABLE` (retryable) while it cannot be reached, `INTERNAL_ERROR` when it
/// returns damaged data — never a bare 500, never a half-done flow.
struct StorageFailureTests {
    static let unavailable = StoreError(.unavailable, "database is locked")
    static let corrupt = StoreError(.corrupt, "a row cannot be decoded")

    @Test(arguments: [
        (unavailable, "SERVICE_UNAVAILABLE", HTTPResponse.Status.serviceUnavailable),
        (corrupt, "INTERNAL_ERROR", .internalServerError),
    ])
    func everyStoringRouteReportsTheFailure(
        _ failure: StoreError,
        _ code: String,
        _ status: HTTPResponse.Status
    ) async throws {
        let store = FailingStore()
        let server = try TestServer(store: store)
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let credential = try await api.enroll("alice", authenticator: &phone)
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            let (session, options) = try await api.signInSession(userID: "alice")
            let assertion = api.assertion(options, authenticator: &phone)

            store.fail(with: failure)
            let responses = [
                try await api.backend(.post, "/v1/registrations", body: NewRegistration(userId: "bob")),
                try await api.backend(.get, Path.registration(attempt.registrationAttemptId)),
                try await api.backend(.post, "/v1/registrations/\(attempt.registrationAttemptId)/finalize"),
                try await api.backend(.post, "/v1/authentications", body: NewAuthentication(userId: "alice")),
                try await api.backend(
                    .post,
                    Path.redeem(session.biometricPasskeySessionId),
                    body: Redeem(resultToken: "pkr_x")
                ),
                try await api.backend(.get, Path.userCredentials("alice")),
                try await api.backend(.get, Path.credential(credential.credentialId)),
                try await api.backend(.patch, Path.credential(credential.credentialId), body: Rename(name: "Phone")),
                try await api.backend(.delete, Path.credential(credential.credentialId)),
                try await api.backend(.delete, "/v1/users/alice"),
                try await api.backend(.get, "/v1/audit-events"),
                try await api.backend(.get, "/v1/users"),
                try await api.client(
                    .post,
                    Path.registrationOptions(attempt.registrationAttemptId),
                    token: attempt.clientToken
                ),
                try await api.client(
                    .post,
                    Path.authenticationComplete(session.biometricPasskeySessionId),
                    token: session.clientToken,
                    body: CompleteAuthentication(credential: assertion)
                ),
            ]
            for response in responses {
                expectError(response, code, status, retryable: true)
                // A busy or unreachable store says when to come back; a damaged one does not.
                #expect(response.headers[.retryAfter] == (status == .serviceUnavailable ? "2" : nil))
            }

            // Once the database is back, nothing was half done.
            store.fail(with: nil)
            #expect(try await api.credentials(of: "alice").map(\.name) == [credential.name])
            #expect(try await api.completeSignIn(session, assertion).status == .ok)
        }
    }

    @Test("failure limits fail closed: a sign-in whose attempt cannot be counted is refused before it is verified")
    func uncountableAttemptIsRefused() async throws {
        let store = FailingStore()
        let server = try TestServer(store: store)
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let (session, options) = try await api.signInSession(userID: "alice")
            // Even damaged counters are not a 500.
            store.failLimits(counting: Self.corrupt)
            expectError(
                try await api.completeSignIn(session, api.assertion(options, authenticator: &phone)),
                "SERVICE_UNAVAILABLE",
                .serviceUnavailable,
                retryable: true
            )
            #expect(server.logs.all.contains { $0.contains("an attempt could not be counted") })
            // The challenge was not spent.
            store.failLimits(counting: nil)
            #expect(try await api.completeSignIn(session, api.assertion(options, authenticator: &phone)).status == .ok)
        }
    }

    @Test("failure limits fail closed: a failed sign-in that cannot be counted answers SERVICE_UNAVAILABLE")
    func uncountableFailureIsNotReportedAsAnOrdinaryOne() async throws {
        let store = FailingStore()
        let server = try TestServer(store: store)
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let (session, options) = try await api.signInSession(userID: "alice")
            // The attempt is counted; its failure, against the credential's limit, is not.
            store.failLimits(counting: Self.unavailable, after: 1)
            var response = api.assertion(options, authenticator: &phone)
            response.response.signature.bytes[8] ^= 0xFF
            expectError(
                try await api.completeSignIn(session, response),
                "SERVICE_UNAVAILABLE",
                .serviceUnavailable,
                retryable: true
            )
            #expect(server.logs.all.contains { $0.contains("an attempt could not be counted") })
            store.failLimits(counting: nil)
            let next = try await api.authenticationOptions(session)
            #expect(try await api.completeSignIn(session, api.assertion(next, authenticator: &phone)).status == .ok)
        }
    }

    @Test("a successful sign-in whose counted attempt cannot be given back still succeeds, and says so in the log")
    func unreleasableAttemptStillSucceeds() async throws {
        let store = FailingStore()
        let server = try TestServer(store: store)
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            store.failLimits(counting: nil, releasing: Self.unavailable)
            _ = try await api.signIn(userID: "alice", authenticator: &phone)
            #expect(server.logs.all.contains { $0.contains("could not be given back") })
        }
    }

    @Test func theFailureIsLoggedWithoutSecrets() async throws {
        let store = FailingStore()
        let server = try TestServer(store: store)
        try await server.withAPI { api in
            store.fail(with: Self.unavailable)
            expectError(
                try await api.backend(.post, "/v1/registrations", body: NewRegistration(userId: "alice")),
                "SERVICE_UNAVAILABLE",
                .serviceUnavailable
            )
            #expect(server.logs.all.contains { $0.contains("storage failure") && $0.contains("database is locked") })
        }
    }
}
