import Foundation
import HTTPTypes
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

@testable import PasskeyServer

/// `RATE_LIMITED` with `Retry-After`: client API requests per minute (per process), and failed sign-ins per credential
/// and per IP (counted in the store, for every process).
struct RateLimitTests {
    @Test func clientRequestsPerMinuteAreLimited() async throws {
        let server = try TestServer { $0.limits.clientRequestsPerMinute = 3 }
        try await server.withAPI { api in
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            let path = Path.registrationOptions(attempt.registrationAttemptId)
            for _ in 0..<3 {
                #expect(try await api.client(.post, path, token: attempt.clientToken).status == .ok)
            }
            server.clock.advance(by: 20)
            let limited = try await api.client(.post, path, token: attempt.clientToken)
            expectError(limited, "RATE_LIMITED", .tooManyRequests, retryable: true)
            #expect(limited.headers[.retryAfter] == "40")
            // Whatever the route or token: the limit is per client address.
            expectError(
                try await api.client(.post, Path.authenticationOptions("auth_x"), token: "pkc_x"),
                "RATE_LIMITED",
                .tooManyRequests
            )
            // The backend API is not limited by it.
            #expect(try await api.backend(.get, Path.registration(attempt.registrationAttemptId)).status == .ok)

            server.clock.advance(by: 40)
            #expect(try await api.client(.post, path, token: attempt.clientToken).status == .ok)
        }
    }

    @Test func identityVerificationProxyPathsShareTheClientLimit() async throws {
        let server = try TestServer {
            $0.limits.clientRequestsPerMinute = 3
            $0.identityVerification.provider = .simulated
        }
        try await server.withLiveAPI { api in
            let paths = [
                "/biometric-passkey/mobile/step-up/auth_x/idv/start",
                "/biometric-passkey/mobile/cross-platform/xps_x/idv/start",
                "/biometric-passkey/mobile/recovery/rec_x/idv/start",
            ]
            for path in paths { #expect(try await api.client(.post, path, token: "pkc_x").status != .tooManyRequests) }
            for path in paths {
                let limited = try await api.client(.post, path, token: "pkc_x")
                expectError(limited, "RATE_LIMITED", .tooManyRequests, retryable: true)
            }
        }
    }

    @Test func everyClientRouteIsUnderTheClientLimit() throws {
        let service = try TestServer().service
        for route in PasskeyRoutes.table(service) where route.access == .client {
            #expect(ClientRateLimitMiddleware.isLimited(route.path), "\(route.path) escapes the client limit")
        }
    }

    @Test func failedSignInsPerCredentialAreLimitedButAValidAssertionNeverIs() async throws {
        let server = try TestServer {
            $0.limits.failedAssertionsPerCredential = 2
            $0.limits.failureWindowSeconds = 600
        }
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let (session, _) = try await api.signInSession(userID: "alice")
            func forged() async throws -> APIResponse {
                let options = try await api.authenticationOptions(session)
                var response = api.assertion(options, authenticator: &phone)
                response.response.signature.bytes[8] ^= 0xFF
                return try await api.completeSignIn(session, response)
            }
            for _ in 0..<2 { expectError(try await forged(), "ASSERTION_INVALID", .badRequest) }
            server.clock.advance(by: 100)
            // Past the limit a failure is answered RATE_LIMITED, until the window ends …
            let limited = try await forged()
            expectError(limited, "RATE_LIMITED", .tooManyRequests, retryable: true)
            #expect(limited.headers[.retryAfter] == "500")
            // … but the owner's valid assertion is never refused: the credential id is public, and failing on
            // purpose against it must not lock its owner out.
            let options = try await api.authenticationOptions(session)
            #expect(try await api.completeSignIn(session, api.assertion(options, authenticator: &phone)).status == .ok)
            _ = try await api.signIn(userID: "alice", authenticator: &phone)
        }
    }

    @Test func concurrentFailedSignInsFromOneAddressPassTheLimitAtMostItsCount() async throws {
        let server = try TestServer { $0.limits.failedAssertionsPerIP = 10 }
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            var attempts: [(AuthenticationSession, AuthenticationResponseJSON)] = []
            for _ in 0..<60 {
                let (session, _) = try await api.signInSession(userID: "alice")
                var response = api.assertion(try await api.authenticationOptions(session), authenticator: &phone)
                response.response.signature.bytes[8] ^= 0xFF
                attempts.append((session, response))
            }
            let codes = try await withThrowingTaskGroup(of: String.self) { group in
                for (session, response) in attempts {
                    group.addTask { errorCode(try await api.completeSignIn(session, response)) ?? "none" }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(codes == ["ASSERTION_INVALID": 10, "RATE_LIMITED": 50])
        }
    }

    @Test func failedSignInsPerAddressAreLimited() async throws {
        let server = try TestServer {
            $0.limits.failedAssertionsPerIP = 2
        }
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let (session, _) = try await api.signInSession(userID: nil)
            for _ in 0..<2 {
                let options = try await api.authenticationOptions(session)
                var stranger = TestAuthenticator()
                expectError(
                    try await api.completeSignIn(session, api.assertion(options, authenticator: &stranger)),
                    "CREDENTIAL_NOT_FOUND",
                    .notFound
                )
            }
            let options = try await api.authenticationOptions(session)
            let limited = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
            expectError(limited, "RATE_LIMITED", .tooManyRequests, retryable: true)
            #expect(limited.headers[.retryAfter] == "900")
        }
    }

    @Test(
        "failed sign-ins through two server instances sharing a store reach the limit at exactly the configured count"
    )
    func failedSignInsAreCountedAcrossInstances() async throws {
        let store = MemoryPasskeyStore()
        let configure: (inout ServerConfiguration) -> Void = { $0.limits.failedAssertionsPerCredential = 3 }
        let first = try TestServer(store: store, configure: configure)
        let second = try TestServer(store: store, configure: configure)
        try await first.withAPI { a in
            try await second.withAPI { b in
                var phone = TestAuthenticator()
                try await a.enroll("alice", authenticator: &phone)
                let (session, _) = try await a.signInSession(userID: "alice")
                for api in [a, b, a] {
                    let options = try await api.authenticationOptions(session)
                    var response = api.assertion(options, authenticator: &phone)
                    response.response.signature.bytes[8] ^= 0xFF
                    expectError(try await api.completeSignIn(session, response), "ASSERTION_INVALID", .badRequest)
                }
                // Three failures, two here and one there: the next failure is limited on both instances.
                for api in [b, a] {
                    let options = try await api.authenticationOptions(session)
                    var response = api.assertion(options, authenticator: &phone)
                    response.response.signature.bytes[8] ^= 0xFF
                    let limited = try await api.completeSignIn(session, response)
                    expectError(limited, "RATE_LIMITED", .tooManyRequests, retryable: true)
                    #expect(limited.headers[.retryAfter] == "900")
                }
            }
        }
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// Sends a client API request over a real socket (its peer is the loopback address) with `X-Forwarded-For`.
    static func options(_ api: API, forwardedFor: String) async throws -> APIResponse {
        try await api.send(
            .post,
            Path.registrationOptions("reg_x"),
            bearer: "pkc_x",
            headers: [Self.forwardedFor: forwardedFor]
        )
    }

    @Test func behindATrustedProxyTheFirstUntrustedHopFromTheRightIsTheKey() async throws {
        let server = try TestServer {
            $0.limits.clientRequestsPerMinute = 1
            $0.limits.trustedProxies = ["127.0.0.1", "::1", "10.0.0.0/8"]
        }
        try await server.withLiveAPI { api in
            expectError(try await Self.options(api, forwardedFor: "203.0.113.5"), "UNAUTHENTICATED", .unauthorized)
            expectError(try await Self.options(api, forwardedFor: "203.0.113.5"), "RATE_LIMITED", .tooManyRequests)
            // Trusted hops (10.x) on the right are skipped; what the client wrote on the left does not matter.
            expectError(
                try await Self.options(api, forwardedFor: "203.0.113.5, 198.51.100.7, 10.0.0.1"),
                "UNAUTHENTICATED",
                .unauthorized
            )
            expectError(
                try await Self.options(api, forwardedFor: " 192.0.2.1 ,198.51.100.7 , 10.0.0.2"),
                "RATE_LIMITED",
                .tooManyRequests
            )
            // The same address written another way is the same client.
            expectError(
                try await Self.options(api, forwardedFor: "::ffff:198.51.100.7"),
                "RATE_LIMITED",
                .tooManyRequests
            )
        }
    }

    @Test func aRotatingForgedFirstEntryDoesNotEscapeTheLimit() async throws {
        let server = try TestServer {
            $0.limits.clientRequestsPerMinute = 5
            $0.limits.trustedProxies = ["127.0.0.1", "::1"]
        }
        try await server.withLiveAPI { api in
            var limited = 0
            for index in 0..<40 {
                // The client writes a new address each time; the proxy appends the address it really saw.
                let response = try await Self.options(api, forwardedFor: "198.18.0.\(index), 203.0.113.9")
                if response.status == .tooManyRequests { limited += 1 }
            }
            #expect(limited == 35)
        }
    }

    @Test func aRequestThatDidNotComeThroughATrustedProxyIsTheConnectionsPeer() async throws {
        let server = try TestServer {
            $0.limits.clientRequestsPerMinute = 1
            $0.limits.trustedProxies = ["10.0.0.0/8"]
        }
        try await server.withLiveAPI { api in
            expectError(try await Self.options(api, forwardedFor: "203.0.113.5"), "UNAUTHENTICATED", .unauthorized)
            expectError(try await Self.options(api, forwardedFor: "198.51.100.7"), "RATE_LIMITED", .tooManyRequests)
        }
    }

    @Test func garbageHopsEndTheWalkAtTheLastTrustedProxy() {
        let proxies = TrustedProxies(ranges: ["10.0.0.0/8"].compactMap(IPAddressRange.init))
        #expect(
            proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["203.0.113.5, not-an-address, 10.0.0.9"])
                == "10.0.0.9"
        )
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["10.0.0.7", "10.0.0.9"]) == "10.0.0.7")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: []) == "10.1.2.3")
        #expect(proxies.clientAddress(peer: "192.0.2.1", forwardedFor: ["203.0.113.5"]) == "192.0.2.1")
        let many = Array(repeating: "10.0.0.1", count: 40).joined(separator: ",")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["203.0.113.5," + many]) == "10.0.0.1")
    }

    @Test func addressesAndRanges() throws {
        #expect(IPAddress("2001:DB8:0:0::1")?.description == "2001:db8::1")
        #expect(IPAddress("::ffff:192.0.2.1") == IPAddress("192.0.2.1"))
        for bad in ["", "example.com", "192.0.2.1:80", "1.2.3", "[::1]", "192.0.2.256"] {
            #expect(IPAddress(bad) == nil)
        }
        let range = try #require(IPAddressRange("192.0.2.128/25"))
        #expect(range.contains(try #require(IPAddress("192.0.2.200"))))
        #expect(!range.contains(try #require(IPAddress("192.0.2.127"))))
        #expect(!range.contains(try #require(IPAddress("::1"))))
        #expect(try #require(IPAddressRange("2001:db8::/32")).contains(try #require(IPAddress("2001:db8:ffff::5"))))
        #expect(try #require(IPAddressRange("0.0.0.0/0")).contains(try #require(IPAddress("203.0.113.5"))))
        for bad in ["10.0.0.0/33", "10.0.0.0/", "/8", "::/129"] { #expect(IPAddressRange(bad) == nil) }
    }

    @Test func theInMemoryKeyTableStaysBoundedUnderAFloodOfAddresses() {
        let limiter = RateLimiter(maximumKeys: 1000)
        let now = Date()
        for index in 0..<5000 { _ = limiter.record("key-\(index)", limit: 10, window: 60, at: now) }
        #expect(limiter.count <= 1000)
        #expect(limiter.record("key-4999", limit: 1, window: 60, at: now) != nil, "the newest keys are kept")
    }

    @Test func withoutATrustedProxyTheForwardedAddressIsIgnored() async throws {
        let server = try TestServer { $0.limits.clientRequestsPerMinute = 1 }
        try await server.withAPI { api in
            let first = try await api.send(
                .post,
                Path.registrationOptions("reg_x"),
                bearer: "pkc_x",
                headers: [Self.forwardedFor: "203.0.113.5"]
            )
            expectError(first, "UNAUTHENTICATED", .unauthorized)
            let second = try await api.send(
                .post,
                Path.registrationOptions("reg_x"),
                bearer: "pkc_x",
                headers: [Self.forwardedFor: "198.51.100.7"]
            )
            expectError(second, "RATE_LIMITED", .tooManyRequests)
        }
    }
}
