import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// The application over a real socket: what `passkeys serve` runs, with HTTP/1.1 framing, headers and the
/// client's address.
struct LiveHTTPTests {
    @Test func registersAndSignsInOverHTTP() async throws {
        let server = try TestServer()
        try await server.withLiveAPI { api in
            #expect(api.client.port != nil)
            var phone = TestAuthenticator()
            let credential = try await api.enroll(
                NewRegistration(userId: "alice", displayName: "Alice"),
                authenticator: &phone
            )
            #expect(credential.userId == "alice")

            let withName = try await api.signIn(userID: "alice", authenticator: &phone, action: "login")
            #expect(withName.credentialId == credential.credentialId)
            #expect(withName.action == "login")
            let withoutName = try await api.signIn(userID: nil, authenticator: &phone)
            #expect(withoutName.userId == "alice")

            #expect(try await api.credentials(of: "alice").map(\.credentialId) == [credential.credentialId])
            let health = try await api.send(.get, "/health")
            #expect(health.status == .ok)
            #expect(health.headers[API.requestIDHeader] != nil)
        }
    }

    @Test func errorsHaveTheirShapeOverHTTP() async throws {
        let server = try TestServer { $0.limits.maxRequestBodyBytes = 1024 }
        try await server.withLiveAPI { api in
            expectError(try await api.send(.get, "/v1/audit-events"), "UNAUTHENTICATED", .unauthorized)
            expectError(try await api.send(.get, "/v1/nothing"), "NOT_FOUND", .notFound)
            expectError(try await api.backend(.post, "/v1/registrations", json: "{"), "INVALID_REQUEST", .badRequest)
            let large = #"{"userId": "alice", "userName": "\#(String(repeating: "a", count: 3000))"}"#
            expectError(
                try await api.backend(.post, "/v1/registrations", json: large),
                "PAYLOAD_TOO_LARGE",
                .contentTooLarge
            )
            // The connection is still usable.
            #expect(try await api.send(.get, "/health").status == .ok)
        }
    }

    @Test func theClientsAddressIsTheRateLimitKey() async throws {
        let server = try TestServer { $0.limits.clientRequestsPerMinute = 2 }
        try await server.withLiveAPI { api in
            for _ in 0..<2 {
                expectError(
                    try await api.client(.post, Path.registrationOptions("reg_x"), token: "pkc_x"),
                    "UNAUTHENTICATED",
                    .unauthorized
                )
            }
            expectError(
                try await api.client(.post, Path.registrationOptions("reg_x"), token: "pkc_x"),
                "RATE_LIMITED",
                .tooManyRequests
            )
            // Requests are logged by route pattern.
            #expect(
                server.logs.all.contains {
                    $0.contains("route=/v1/client/registrations/{registrationAttemptId}/options")
                }
            )
        }
    }
}
