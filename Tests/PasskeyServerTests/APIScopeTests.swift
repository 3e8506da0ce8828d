import Crypto
import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Testing

/// Backend API keys carry scopes: every backend route names the one it needs, and a key without it is refused with
/// `INSUFFICIENT_SCOPE` (403) before the handler runs; a key with it gets through. Keys may be configured as hashes.
@Suite("API key scopes")
struct APIScopeTests {
    /// The scopes backend routes need (`*` and `console` are granted, never needed by a route).
    static let routeScopes = APIScope.allCases.filter { $0 != .all && $0 != .console }

    /// A key that grants only `scope`, and one that grants every other route scope, for each scope.
    static func secret(_ scope: APIScope, only: Bool) -> String {
        "scope-test-\(only ? "only" : "without")-\(scope.rawValue)-0123456789abcdef"
    }

    static func configureKeys(_ configuration: inout ServerConfiguration) {
        for scope in routeScopes {
            configuration.apiKeys.append(
                .init(name: "only-\(scope.rawValue)", key: secret(scope, only: true), scopes: [scope])
            )
            configuration.apiKeys.append(
                .init(
                    name: "without-\(scope.rawValue)",
                    key: secret(scope, only: false),
                    scopes: APIScope.allCases.filter { $0 != scope && $0 != .all }
                )
            )
        }
    }

    @Test("every backend route names a scope a key can be given, and only backend routes do")
    func everyBackendRouteHasAScope() throws {
        let server = try TestServer()
        let table = PasskeyRoutes.table(server.service)
        for route in table {
            switch route.access {
            case .backend:
                let scope = try #require(route.scope, "\(route.method) \(route.path) names no scope")
                #expect(Self.routeScopes.contains(scope), "\(route.method) \(route.path) needs \(scope)")
            case .client, .open:
                #expect(route.scope == nil, "\(route.method) \(route.path) is not a backend route but names a scope")
            }
        }
        let used = Set(table.compactMap(\.scope))
        for scope in Self.routeScopes where !used.contains(scope) { Issue.record("no route needs \(scope.rawValue)") }
    }

    @Test(
        "a key without a route's scope is refused with INSUFFICIENT_SCOPE; one with it gets through",
        arguments: routeScopes
    )
    func eachRouteChecksItsScope(_ scope: APIScope) async throws {
        let server = try TestServer(configure: Self.configureKeys)
        let routes = PasskeyRoutes.table(server.service).filter { $0.access == .backend && $0.scope == scope }
        #expect(!routes.isEmpty)
        try await server.withAPI { api in
            for route in routes {
                let path = AuthorizationTests.concretePath(route.path)
                let body = Array("{}".utf8)
                let refused = try await api.send(
                    route.method,
                    path,
                    bearer: Self.secret(scope, only: false),
                    body: body
                )
                expectError(refused, "INSUFFICIENT_SCOPE", .forbidden)
                #expect(refused.text.contains("'\(scope.rawValue)'"), "\(route.path): \(refused.text)")
                #expect(refused.text.contains("without-\(scope.rawValue)"))

                let accepted = try await api.send(
                    route.method,
                    path,
                    bearer: Self.secret(scope, only: true),
                    body: body
                )
                #expect(accepted.status != .unauthorized, "\(route.method) \(route.path): \(accepted)")
                #expect(!accepted.text.contains("INSUFFICIENT_SCOPE"), "\(route.method) \(route.path): \(accepted)")
            }
        }
    }

    @Test("a key with '*', or with no scopes, passes every backend route")
    func wildcardAndUnscopedKeysGrantEverything() async throws {
        let wildcard = "scope-test-wildcard-0123456789abcdef"
        let server = try TestServer { $0.apiKeys.append(.init(name: "wildcard", key: wildcard, scopes: [.all])) }
        let routes = PasskeyRoutes.table(server.service).filter { $0.access == .backend }
        try await server.withAPI { api in
            for route in routes {
                for key in [wildcard, TestServer.apiKey] {
                    let response = try await api.send(
                        route.method,
                        AuthorizationTests.concretePath(route.path),
                        bearer: key,
                        body: Array("{}".utf8)
                    )
                    #expect(response.status != .unauthorized && !response.text.contains("INSUFFICIENT_SCOPE"))
                }
            }
        }
        for key in server.configuration.apiKeys {
            for scope in APIScope.allCases { #expect(key.grants(scope)) }
        }
    }

    @Test("a key kept as its hash works, with its scopes, and the audit log names it")
    func hashedKeyWorks() async throws {
        let secret = "hashed-scope-key-0123456789abcdefgh"
        let entry = ServerConfiguration.APIKey.hashing(secret, name: "registrar", scopes: [.registrations])
        #expect(entry.key == nil)
        #expect(entry.sha256?.count == 64)
        #expect(entry.sha256 == SHA256.hash(data: Array(secret.utf8)).map { String(format: "%02x", $0) }.joined())
        let server = try TestServer { $0.apiKeys.append(entry) }
        try await server.withAPI { api in
            let created = try await api.send(
                .post,
                "/v1/registrations",
                bearer: secret,
                body: Array(#"{"userId": "alice", "userName": "alice"}"#.utf8)
            )
            #expect(created.status == .created, "\(created)")
            let listing = try await api.send(.get, "/v1/users", bearer: secret)
            expectError(listing, "INSUFFICIENT_SCOPE", .forbidden)
            let wrong = try await api.send(.get, "/v1/users", bearer: String(secret.dropLast()) + "x")
            expectError(wrong, "UNAUTHENTICATED", .unauthorized)
            let events = try await api.auditEvents().events
            #expect(events.contains { $0.actor == "api-key:registrar" })
        }
    }
}
