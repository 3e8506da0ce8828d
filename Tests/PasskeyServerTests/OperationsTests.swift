import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// `/health` and `/metrics`.
struct OperationsTests {
    @Test func healthSaysOK() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let response = try await api.send(.get, "/health")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(try response.json() == .object(["status": .string("ok")]))
        }
    }

    @Test func metricsCountCeremoniesAndRequests() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            _ = try await api.signIn(userID: "alice", authenticator: &phone)
            let (session, options) = try await api.signInSession(userID: "alice")
            expectError(
                try await api.completeSignIn(
                    session,
                    api.assertion(options, authenticator: &phone, origin: "https://evil.example")
                ),
                "ORIGIN_NOT_ALLOWED",
                .badRequest
            )
            _ = try await api.send(.get, "/nothing")

            let response = try await api.send(.get, "/metrics")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            let lines = response.text.split(separator: "\n").map(String.init)
            #expect(lines.contains("# TYPE passkeys_ceremonies_total counter"))
            #expect(lines.contains(#"passkeys_ceremonies_total{flow="registration",outcome="succeeded"} 1"#))
            #expect(lines.contains(#"passkeys_ceremonies_total{flow="authentication",outcome="succeeded"} 1"#))
            #expect(lines.contains(#"passkeys_ceremonies_total{flow="authentication",outcome="failed"} 1"#))
            #expect(
                lines.contains {
                    $0.hasPrefix("passkeys_http_requests_total{") && $0.contains(#"route="/v1/registrations""#)
                        && $0.contains(#"status="201""#)
                }
            )
            #expect(lines.contains { $0.hasPrefix("passkeys_http_requests_total{") && $0.contains(#"status="404""#) })
            #expect(lines.contains { $0.hasPrefix("passkeys_http_request_duration_seconds_bucket{") })
            // Routes are labelled by their pattern, never by ids or tokens.
            #expect(!response.text.contains(phone.credentialIDText))
            #expect(!response.text.contains(session.biometricPasskeySessionId))
        }
    }
}
