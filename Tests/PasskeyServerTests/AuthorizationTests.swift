import Crypto
import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

/// Who may call what: the backend API takes an API key, the client API a token of that very flow, and the
/// public routes nothing. Failures are always `UNAUTHENTICATED`, and say nothing about whether the flow exists.
struct AuthorizationTests {
    /// Every route of `PasskeyRoutes`, with its path parameters filled in.
    static func concretePath(_ path: String) -> String {
        path.replacingOccurrences(of: "{registrationAttemptId}", with: "reg_x")
            .replacingOccurrences(of: "{biometricPasskeySessionId}", with: "auth_x")
            .replacingOccurrences(of: "{userId}", with: "alice")
            .replacingOccurrences(of: "{credentialId}", with: "AAAA")
    }

    struct BadCredential: Sendable, CustomTestStringConvertible {
        let name: String
        let authorization: String?
        var testDescription: String { name }
    }

    static let badBackendCredentials: [BadCredential] = [
        BadCredential(name: "no Authorization header", authorization: nil),
        BadCredential(name: "a wrong key", authorization: "Bearer wrong-api-key-0123456789-abcdefgh"),
        BadCredential(name: "the key with one character more", authorization: "Bearer \(TestServer.apiKey)x"),
        BadCredential(name: "the key in Basic", authorization: "Basic \(TestServer.apiKey)"),
        BadCredential(name: "the key without a scheme", authorization: TestServer.apiKey),
        BadCredential(name: "an empty bearer", authorization: "Bearer "),
        BadCredential(name: "a huge header", authorization: "Bearer " + String(repeating: "k", count: 5000)),
    ]

    @Test(arguments: badBackendCredentials)
    func everyBackendRouteNeedsTheAPIKey(_ credential: BadCredential) async throws {
        let server = try TestServer()
        let routes = PasskeyRoutes.table(server.service).filter { $0.access == .backend }
        #expect(routes.count == 21)
        try await server.withAPI { api in
            for route in routes {
                var headers: HTTPFields = [:]
                if let authorization = credential.authorization { headers[.authorization] = authorization }
                let response = try await api.send(
                    route.method,
                    Self.concretePath(route.path),
                    body: Array("{}".utf8),
                    headers: headers
                )
                expectError(response, "UNAUTHENTICATED", .unauthorized)
            }
        }
    }

    @Test func everyClientRouteNeedsAToken() async throws {
        let server = try TestServer()
        let routes = PasskeyRoutes.table(server.service).filter { $0.access == .client }
        #expect(routes.count == 12)
        try await server.withAPI { api in
            for route in routes {
                for token in [nil, "pkc_unknown", TestServer.apiKey] {
                    let response = try await api.send(route.method, Self.concretePath(route.path), bearer: token)
                    // A recovery's token is its own: a wrong one says so, as unknown attempts do.
                    let code =
                        token != nil && route.path.contains("/recovery/") ? "RECOVERY_TOKEN_INVALID" : "UNAUTHENTICATED"
                    expectError(response, code, .unauthorized)
                }
            }
        }
    }

    @Test func aClientTokenDrivesOnlyItsOwnFlow() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let registration = try await api.createRegistration(NewRegistration(userId: "alice"))
            let otherRegistration = try await api.createRegistration(NewRegistration(userId: "bob"))
            let session = try await api.startSignIn(userID: "alice")
            let otherSession = try await api.startSignIn(userID: nil)
            let registrationID = registration.registrationAttemptId
            let sessionID = session.biometricPasskeySessionId

            let refused: [(String, String)] = [
                // Another flow's token, of the same kind.
                (Path.registrationOptions(registrationID), otherRegistration.clientToken),
                (Path.registrationComplete(registrationID), otherRegistration.clientToken),
                (Path.authenticationOptions(sessionID), otherSession.clientToken),
                (Path.authenticationComplete(sessionID), otherSession.clientToken),
                // A token of another kind of flow.
                (Path.registrationOptions(registrationID), session.clientToken),
                (Path.authenticationOptions(sessionID), registration.clientToken),
                // The right token on the other kind's route with this flow's id.
                (Path.authenticationOptions(registrationID), registration.clientToken),
                (Path.registrationOptions(sessionID), session.clientToken),
                // The API key is not a client token.
                (Path.registrationOptions(registrationID), TestServer.apiKey),
                // Nor is a token with a character missing.
                (Path.registrationOptions(registrationID), String(registration.clientToken.dropLast())),
            ]
            for (path, token) in refused {
                expectError(try await api.client(.post, path, token: token), "UNAUTHENTICATED", .unauthorized)
            }
            // A client token is not an API key.
            let backendWithClientToken = try await api.send(
                .get,
                Path.registration(registrationID),
                bearer: registration.clientToken
            )
            expectError(backendWithClientToken, "UNAUTHENTICATED", .unauthorized)

            // Each token still works for its own flow; the scheme is case-insensitive.
            #expect(
                try await api.client(.post, Path.registrationOptions(registrationID), token: registration.clientToken)
                    .status == .ok
            )
            let lowercase = try await api.send(
                .post,
                Path.authenticationOptions(sessionID),
                headers: [.authorization: "bearer \(session.clientToken)"]
            )
            #expect(lowercase.status == .ok)
        }
    }

    @Test func anAPIKeyMayBeConfiguredByItsHash() async throws {
        let key = "hashed-api-key-0123456789-abcdefgh"
        let server = try TestServer { configuration in
            configuration.apiKeys = [.init(name: "ops", sha256: Self.sha256Hex(key))]
        }
        try await server.withAPI { api in
            let accepted = try await api.send(.get, "/v1/audit-events", bearer: key)
            #expect(accepted.status == .ok)
            expectError(
                try await api.send(.get, "/v1/audit-events", bearer: TestServer.apiKey),
                "UNAUTHENTICATED",
                .unauthorized
            )
            // The audit log names the key that acted.
            #expect(
                try await api.send(
                    .post,
                    "/v1/registrations",
                    bearer: key,
                    body: JSON.encode(NewRegistration(userId: "alice"))
                ).status == .created
            )
            let events = try await api.send(.get, "/v1/audit-events", bearer: key).decode(AuditPageView.self).events
            #expect(events.map(\.actor) == ["api-key:ops"])
        }
    }

    @Test func publicRoutesNeedNothing() async throws {
        let server = try TestServer()
        let routes = PasskeyRoutes.table(server.service).filter {
            $0.access == .open && !RoutingTests.openWithCredentialInBody.contains($0.path)
        }
        #expect(routes.count == 6)
        try await server.withAPI { api in
            for route in routes {
                let response = try await api.send(route.method, route.path)
                #expect(response.status == .ok, "\(route.path): \(response)")
            }
        }
    }

    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).map { String(format: "%02X", $0) }.joined()
    }
}
