import Foundation
import HTTPTypes
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

@testable import PasskeyServer

/// A registration attempt's end before it completes: cancelled by the backend, or cleaned up by the purge — over the
/// real HTTP stack, on SQLite and (when configured) PostgreSQL.
struct RegistrationLifecycleTests {
    static func cancelPath(_ id: String) -> String { "/v1/registrations/\(id)/cancel" }

    /// Runs `body` against a server on a fresh store of `kind`.
    static func withServer(
        _ kind: RealStore,
        _ body: @escaping @Sendable (TestServer, API) async throws -> Void
    ) async throws {
        try await kind.with { store in
            let server = try TestServer(store: store)
            try await server.withAPI { api in try await body(server, api) }
        }
    }

    @Test(arguments: RealStore.available)
    func aCancelledAttemptAnswersSoToEveryLaterCall(_ kind: RealStore) async throws {
        try await Self.withServer(kind) { server, api in
            var phone = TestAuthenticator()
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice", finalize: "explicit"))
            let id = attempt.registrationAttemptId
            let options = try await api.registrationOptions(attempt)
            let response = try api.registrationResponse(options, authenticator: &phone)

            let cancelled = try await api.backend(.post, Self.cancelPath(id)).expect(.ok, RegistrationStatusView.self)
            #expect(cancelled.status == "cancelled")
            let status = try await api.backend(.get, Path.registration(id)).expect(.ok, RegistrationStatusView.self)
            #expect(status.status == "cancelled")

            // The app's pending response, new options, and the backend's own calls.
            expectError(try await api.completeRegistration(attempt, response), "REGISTRATION_ATTEMPT_CANCELLED", .gone)
            expectError(
                try await api.client(.post, Path.registrationOptions(id), token: attempt.clientToken),
                "REGISTRATION_ATTEMPT_CANCELLED",
                .gone
            )
            for path in [ExplicitFinalizeTests.finalizePath, ExplicitFinalizeTests.abortPath, Self.cancelPath] {
                expectError(try await api.backend(.post, path(id)), "REGISTRATION_ATTEMPT_CANCELLED", .gone)
            }
            #expect(try await api.credentials(of: "alice").isEmpty, "nothing was stored for it")
            let audit = try await server.service.context.store.auditEvents(after: 0, limit: 100, userID: "alice")
            #expect(audit.contains { $0.action == "registration.cancelled" && $0.subject == id })
            // A new attempt for the same user goes on as usual.
            try await api.enroll("alice", authenticator: &phone)
        }
    }

    @Test(arguments: RealStore.available)
    func onlyAnAttemptThatHasNotCompletedIsCancelled(_ kind: RealStore) async throws {
        try await Self.withServer(kind) { server, api in
            var phone = TestAuthenticator()
            // Created, no options yet: cancelled.
            let fresh = try await api.createRegistration(NewRegistration(userId: "alice"))
            #expect(try await api.backend(.post, Self.cancelPath(fresh.registrationAttemptId)).status == .ok)

            let completed = try await api.createRegistration(NewRegistration(userId: "alice"))
            _ = try await api.completeRegistration(
                completed,
                try api.registrationResponse(try await api.registrationOptions(completed), authenticator: &phone)
            ).expect(.created, CredentialView.self)
            expectError(
                try await api.backend(.post, Self.cancelPath(completed.registrationAttemptId)),
                "REGISTRATION_ATTEMPT_CONFLICT",
                .conflict
            )
            #expect(try await api.credentials(of: "alice").map(\.status) == ["active"])

            let expired = try await api.createRegistration(NewRegistration(userId: "alice"))
            server.clock.advance(by: Double(server.configuration.expiries.registrationAttempt) + 1)
            expectError(
                try await api.backend(.post, Self.cancelPath(expired.registrationAttemptId)),
                "REGISTRATION_ATTEMPT_EXPIRED",
                .gone
            )
            expectError(try await api.backend(.post, Self.cancelPath("reg_unknown")), "NOT_FOUND", .notFound)
        }
    }

    @Test(arguments: RealStore.available)
    func aPurgedAttemptAnswersCleanedUpForAsLongAgainAsItLived(_ kind: RealStore) async throws {
        try await Self.withServer(kind) { server, api in
            let purge = StorePurge(service: server.service)
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            let id = attempt.registrationAttemptId
            let lifetime = Double(server.configuration.expiries.registrationAttempt)
            server.clock.advance(by: lifetime + StorePurge.grace + 1)
            #expect(await purge.round().flows == 1)

            expectError(try await api.backend(.get, Path.registration(id)), "REGISTRATION_ATTEMPT_CLEANED_UP", .gone)
            expectError(
                try await api.backend(.post, ExplicitFinalizeTests.finalizePath(id)),
                "REGISTRATION_ATTEMPT_CLEANED_UP",
                .gone
            )
            expectError(try await api.backend(.post, Self.cancelPath(id)), "REGISTRATION_ATTEMPT_CLEANED_UP", .gone)
            expectError(
                try await api.client(.post, Path.registrationOptions(id), token: attempt.clientToken),
                "REGISTRATION_ATTEMPT_CLEANED_UP",
                .gone
            )
            // A sign-in session is not remembered so.
            expectError(try await api.backend(.get, Path.registration("reg_never")), "NOT_FOUND", .notFound)

            server.clock.advance(by: lifetime - 2)
            #expect(await purge.round().purgedRegistrationIDs == 0, "kept as long as the attempt lived")
            expectError(try await api.backend(.get, Path.registration(id)), "REGISTRATION_ATTEMPT_CLEANED_UP", .gone)
            server.clock.advance(by: 3)
            #expect(await purge.round().purgedRegistrationIDs == 1)
            expectError(try await api.backend(.get, Path.registration(id)), "NOT_FOUND", .notFound)
        }
    }
}
