import Foundation
import HTTPTypes
import PasskeyServer
import Testing
import WebAuthn

/// The route table, unknown routes, and what every response carries.
struct RoutingTests {
    /// The routes these tests cover. A route added to `PasskeyRoutes` fails this test until it is added here,
    /// with tests of its own.
    static let coveredRoutes: Set<String> = [
        "POST /v1/registrations",
        "GET /v1/registrations/{registrationAttemptId}",
        "POST /v1/registrations/{registrationAttemptId}/finalize",
        "POST /v1/registrations/{registrationAttemptId}/abort",
        "POST /v1/registrations/{registrationAttemptId}/cancel",
        "POST /v1/authentications",
        "POST /v1/authentications/{biometricPasskeySessionId}/redeem",
        "GET /v1/users",
        "GET /v1/users/{userId}/credentials",
        "DELETE /v1/users/{userId}",
        "GET /v1/credentials/{credentialId}",
        "PATCH /v1/credentials/{credentialId}",
        "DELETE /v1/credentials/{credentialId}",
        "GET /v1/audit-events",
        "GET /v1/identity-verification/runs/{workflowRunId}",
        "POST /v1/identity-verification/runs/{workflowRunId}/decision",
        "POST /v1/identity-verification/webhook",
        "POST /biometric-passkey/mobile/step-up/{biometricPasskeySessionId}/idv/start",
        "POST /v1/client/registrations/{registrationAttemptId}/options",
        "POST /v1/client/registrations/{registrationAttemptId}/complete",
        "POST /v1/client/authentications/{biometricPasskeySessionId}/options",
        "POST /v1/client/authentications/{biometricPasskeySessionId}/complete",
        "GET /health",
        "GET /metrics",
        "GET /.well-known/apple-app-site-association",
        "GET /.well-known/assetlinks.json",
        "GET /.well-known/webauthn",
        "POST /v1/authentications/{biometricPasskeySessionId}/handoff",
        "POST /v1/client/cross-platform/preview",
        "POST /v1/client/cross-platform/resume",
        "POST /v1/client/cross-platform/{crossPlatformSessionId}/confirm",
        "POST /v1/client/cross-platform/{crossPlatformSessionId}/reject",
        "POST /v1/client/cross-platform/{crossPlatformSessionId}/cancel",
        "GET /v1/client/cross-platform/{crossPlatformSessionId}/status",
        "GET /v1/client/cross-platform/{crossPlatformSessionId}/events",
        "POST /biometric-passkey/mobile/cross-platform/{crossPlatformSessionId}/idv/start",
        "POST /v1/recoveries",
        "GET /v1/recoveries/{recoveryAttemptId}",
        "POST /v1/recoveries/{recoveryAttemptId}/finalize",
        "POST /v1/recoveries/{recoveryAttemptId}/cancel",
        "POST /biometric-passkey/mobile/recovery/{recoveryAttemptId}/idv/start",
        "POST /v1/client/recoveries/{recoveryAttemptId}/registration",
        "POST /v1/client/recoveries/{recoveryAttemptId}/complete",
        "POST /v1/sessions/refresh",
        "POST /v1/sessions/revoke",
        "GET /.well-known/jwks.json",
    ]

    /// Open routes whose body or signature is the credential (the vendor's webhook: WebhookProviderTests; the
    /// phone's claim of a handoff token: CrossDeviceTests; a recovery's new device: RecoveryErrorTests; a token
    /// session's refresh token: TokenSessionTests).
    static let openWithCredentialInBody: Set<String> = [
        "/v1/identity-verification/webhook", "/v1/client/cross-platform/preview",
        "/v1/client/cross-platform/resume",
        "/v1/client/recoveries/{recoveryAttemptId}/registration", "/v1/client/recoveries/{recoveryAttemptId}/complete",
        "/v1/sessions/refresh", "/v1/sessions/revoke",
    ]

    @Test func theRouteTableIsTheCoveredOne() throws {
        let server = try TestServer()
        let table = PasskeyRoutes.table(server.service)
        let routes = table.map { "\($0.method.rawValue) \($0.path)" }
        #expect(Set(routes) == Self.coveredRoutes)
        #expect(routes.count == Set(routes).count, "a route is listed twice")
        for route in table {
            let expected: Route.Access =
                Self.openWithCredentialInBody.contains(route.path)
                ? .open
                : route.path.hasPrefix("/v1/client/") || route.path.hasPrefix("/biometric-passkey/mobile/")
                    ? .client : route.path.hasPrefix("/v1/") ? .backend : .open
            #expect(route.access == expected, "\(route.path)")
        }
    }

    /// API paths; an unknown page path gets an HTML page instead (PageRoutingTests).
    @Test(arguments: [
        "/v1", "/v1/nothing", "/v1/registrations/reg_x/nothing", "/v1/client/registrations", "/.well-known/other",
        "/health/x", "/metrics/x", "/biometric-passkey/nothing",
    ])
    func unknownPathsAreNotFound(_ path: String) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            expectError(try await api.send(.get, path), "NOT_FOUND", .notFound)
            expectError(try await api.backend(.post, path, json: "{}"), "NOT_FOUND", .notFound)
        }
    }

    /// A known path asked with another method is 405 `METHOD_NOT_ALLOWED`, with `Allow` listing the methods it takes.
    @Test(arguments: [
        (HTTPRequest.Method.put, "/v1/registrations", "POST"), (.get, "/v1/registrations", "POST"),
        (.delete, "/v1/registrations/reg_x", "GET"), (.get, "/v1/authentications", "POST"),
        (.put, "/v1/credentials/AAAA", "GET, PATCH, DELETE"),
        (.post, "/health", "GET"), (.delete, "/.well-known/webauthn", "GET"),
        (.get, "/v1/client/registrations/reg_x/options", "POST"),
        (.post, "/v1/users/alice", "DELETE"),
    ])
    func anotherMethodIsNotAllowed(_ method: HTTPRequest.Method, _ path: String, _ allowed: String) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let response = try await api.backend(method, path)
            expectError(response, "METHOD_NOT_ALLOWED", .methodNotAllowed)
            #expect(response.headers[.allow] == allowed)
        }
    }

    @Test func unknownIDsAreNotFound() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            expectError(try await api.backend(.get, Path.registration("reg_unknown")), "NOT_FOUND", .notFound)
            expectError(try await api.backend(.post, "/v1/registrations/reg_unknown/finalize"), "NOT_FOUND", .notFound)
            expectError(try await api.backend(.post, "/v1/registrations/reg_unknown/abort"), "NOT_FOUND", .notFound)
            expectError(try await api.backend(.post, "/v1/registrations/reg_unknown/cancel"), "NOT_FOUND", .notFound)
            expectError(
                try await api.backend(.post, Path.redeem("auth_unknown"), body: Redeem(resultToken: "pkr_x")),
                "NOT_FOUND",
                .notFound
            )
            expectError(try await api.backend(.get, Path.userCredentials("nobody")), "NOT_FOUND", .notFound)
            expectError(try await api.backend(.delete, "/v1/users/nobody"), "NOT_FOUND", .notFound)
            expectError(try await api.backend(.get, Path.credential("AAAAAAAA")), "CREDENTIAL_NOT_FOUND", .notFound)
            expectError(
                try await api.backend(.post, "/v1/authentications", body: NewAuthentication(userId: "nobody")),
                "NOT_FOUND",
                .notFound
            )
            // On the client API an unknown flow looks like a wrong token.
            expectError(
                try await api.client(.post, Path.registrationOptions("reg_unknown"), token: "pkc_x"),
                "UNAUTHENTICATED",
                .unauthorized
            )
        }
    }

    @Test func everyResponseHasARequestIDAndIsNotCached() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var ids: Set<String> = []
            for response in [
                try await api.send(.get, "/health"),
                try await api.backend(.get, "/v1/audit-events"),
                try await api.send(.get, "/nothing"),
                try await api.backend(.post, "/v1/registrations", body: NewRegistration(userId: "alice")),
            ] {
                let id = try #require(response.headers[API.requestIDHeader])
                #expect(id.hasPrefix("req_"))
                ids.insert(id)
                #expect(response.headers[.cacheControl] == "no-store")
            }
            #expect(ids.count == 4)
        }
    }

    @Test func aCallersPlainRequestIDIsKept() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let kept = try await api.send(.get, "/v1/nothing", headers: [API.requestIDHeader: "trace-42_A"])
            expectError(kept, "NOT_FOUND", .notFound)
            #expect(kept.headers[API.requestIDHeader] == "trace-42_A")

            for hostile in [String(repeating: "a", count: 65), "has space", "semi;colon", "slash/ed"] {
                let replaced = try await api.send(.get, "/v1/nothing", headers: [API.requestIDHeader: hostile])
                expectError(replaced, "NOT_FOUND", .notFound)
                #expect(replaced.headers[API.requestIDHeader]?.hasPrefix("req_") == true)
            }
        }
    }
}
