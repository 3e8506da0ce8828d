import HTTPTypes
import PasskeyServer
import PasskeyStorePostgres
import PasskeyTesting
import PostgresTestSupport
import Testing
import WebAuthn

/// DESIGN §3 and §7 on PostgreSQL: two server instances — two applications on two sockets, each with its own
/// connection pool, as two processes behind a load balancer would be — share one database. Skipped (saying so)
/// without `PASSKEYS_POSTGRES_URL`.
@Suite(.enabled(if: TestDatabase.isConfigured, TestDatabase.skipped))
struct PostgresScaleOutTests {
    static let contenders = 50

    /// Runs `body` with two live servers on one fresh schema.
    static func withTwoInstances(
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (API, API) async throws -> Void
    ) async throws {
        try await TestDatabase.withSchema("scaleout") { schema in
            let first = try await schema.connect()
            let second = try await schema.connect()
            do {
                let a = try TestServer(store: first, configure: configure)
                let b = try TestServer(store: second, configure: configure)
                try await a.withLiveAPI { apiA in try await b.withLiveAPI { apiB in try await body(apiA, apiB) } }
            } catch {
                await first.shutdown()
                await second.shutdown()
                throw error
            }
            await first.shutdown()
            await second.shutdown()
        }
    }

    @Test("50 concurrent completions of one sign-in challenge through two instances: exactly one succeeds")
    func oneWinnerAcrossInstances() async throws {
        try await Self.withTwoInstances { a, b in
            var phone = TestAuthenticator()
            try await a.enroll("alice", authenticator: &phone)
            let (session, options) = try await a.signInSession(userID: "alice")
            let response = a.assertion(options, authenticator: &phone)
            let results = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for index in 0..<Self.contenders {
                    let api = index.isMultiple(of: 2) ? a : b
                    group.addTask { try await api.completeSignIn(session, response) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = results.filter { $0.status == .ok }
            #expect(winners.count == 1)
            for loser in results where loser.status != .ok {
                expectError(loser, "CHALLENGE_CONSUMED", .conflict)
            }
            // The result is redeemed once, through either instance.
            let token = try #require(winners.first).decode(SignInCompletion.self).resultToken
            #expect(try await b.redeem(session, token).status == .ok)
            expectError(try await a.redeem(session, token), "RESULT_ALREADY_REDEEMED", .conflict)
        }
    }

    @Test("failed sign-ins from one address spread over two instances reach the limit at exactly the configured count")
    func failureLimitAcrossInstances() async throws {
        let limit: (inout ServerConfiguration) -> Void = { $0.limits.failedAssertionsPerIP = 4 }
        try await Self.withTwoInstances(configure: limit) { a, b in
            var phone = TestAuthenticator()
            try await a.enroll("carol", authenticator: &phone)
            let (session, _) = try await a.signInSession(userID: nil)
            for api in [a, b, b, a] {
                let options = try await api.authenticationOptions(session)
                var stranger = TestAuthenticator()
                expectError(
                    try await api.completeSignIn(session, api.assertion(options, authenticator: &stranger)),
                    "CREDENTIAL_NOT_FOUND",
                    .notFound
                )
            }
            for api in [a, b] {
                let options = try await api.authenticationOptions(session)
                let limited = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                expectError(limited, "RATE_LIMITED", .tooManyRequests, retryable: true)
                #expect(limited.headers[.retryAfter] == "900")
            }
        }
    }

    @Test("a user registered through one instance signs in through the other")
    func instancesShareState() async throws {
        try await Self.withTwoInstances { a, b in
            var phone = TestAuthenticator()
            try await a.enroll("bob", authenticator: &phone)
            let (session, options) = try await b.signInSession(userID: "bob")
            let completion = try await b.completeSignIn(session, b.assertion(options, authenticator: &phone))
            #expect(completion.status == .ok)
            #expect(try await a.credentials(of: "bob").count == 1)
        }
    }
}
