import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PasskeyServer
import PasskeyTesting
import Synchronization
import Testing

/// The server's calls to an identity-verification vendor (the webhook provider), against a local fake vendor over
/// real HTTP: one call per flow however often its start is asked for, bounded in size, never redirected, and no more
/// at once than the server allows.
@Suite("Identity verification: bounded vendor calls")
struct VendorCallBoundsTests {
    /// Runs `body` with a live server using `vendor` through the webhook provider, on a store of `kind`.
    static func withVendor(
        _ vendor: FakeVendor,
        kind: StoreKind = .sqlite,
        _ body: @escaping @Sendable (TestServer, API) async throws -> Void
    ) async throws {
        try await Application(router: vendor.router).test(.live) { vendorClient in
            let port = try #require(vendorClient.port)
            try await kind.withLiveServer(configure: WebhookProviderTests.configure(port: port)) { server, api in
                try await body(server, api)
            }
        }
    }

    /// A step-up of a new enrolled user that requires identity verification.
    static func stepUp(_ api: API, userID: String) async throws -> AuthenticationSession {
        var phone = TestAuthenticator()
        try await api.enroll(userID, authenticator: &phone)
        return try await StepUpTests.startStepUp(api, userID: userID, extra: #", "identityVerification": "required""#)
            .expect(.created, AuthenticationSession.self)
    }

    static func startPath(_ session: AuthenticationSession) -> String {
        "/biometric-passkey/mobile/step-up/\(session.biometricPasskeySessionId)/idv/start"
    }

    @Test(
        "ten concurrent starts of one flow make one vendor call; the others are IDV_ALREADY_STARTED",
        arguments: StoreKind.available
    )
    func singleFlight(kind: StoreKind) async throws {
        let vendor = FakeVendor(.held)
        try await Self.withVendor(vendor, kind: kind) { _, api in
            let session = try await Self.stepUp(api, userID: "una")
            let responses = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await api.onOwnConnection(.post, Self.startPath(session), bearer: session.clientToken)
                    }
                }
                // The vendor holds its answer until every other start has been answered (or 20 s have passed).
                let released = Task {
                    for _ in 0..<1000 where vendor.runs < 10 { try await Task.sleep(for: .milliseconds(20)) }
                    vendor.release()
                }
                var responses: [APIResponse] = []
                for try await response in group {
                    responses.append(response)
                    if responses.count == 9 { vendor.release() }
                }
                released.cancel()
                return responses
            }
            #expect(vendor.runs == 1, "one flow's starts reached the vendor \(vendor.runs) times")
            #expect(responses.filter { $0.status == .created }.count == 1)
            for refused in responses where refused.status != .created {
                expectError(refused, "IDV_ALREADY_STARTED", .conflict)
            }
        }
    }

    @Test("a redirect is not followed, and the flow may start again after the failed call")
    func redirectNotFollowed() async throws {
        let vendor = FakeVendor(.redirect)
        try await Self.withVendor(vendor) { _, api in
            let session = try await Self.stepUp(api, userID: "vic")
            for attempt in 1...2 {
                expectError(
                    try await api.client(.post, Self.startPath(session), token: session.clientToken),
                    "IDENTITY_VERIFICATION_UNAVAILABLE",
                    .badGateway,
                    retryable: true
                )
                #expect(vendor.runs == attempt, "the failed start must leave the flow free to start again")
            }
            #expect(vendor.redirected == 0, "the signed body was re-sent to the redirect's target")
        }
    }

    @Test("an answer larger than the limit is not read past it")
    func oversizedAnswerStopped() async throws {
        let vendor = FakeVendor(.endless)
        try await Self.withVendor(vendor) { _, api in
            let session = try await Self.stepUp(api, userID: "wen")
            expectError(
                try await api.client(.post, Self.startPath(session), token: session.clientToken),
                "IDENTITY_VERIFICATION_UNAVAILABLE",
                .badGateway,
                retryable: true
            )
            // The vendor writes until it notices that the server has gone: a few megabytes at most once the server
            // stops reading, and all 256 MB when it reads on.
            for _ in 0..<300 where !vendor.bodyEnded { try await Task.sleep(for: .milliseconds(100)) }
            #expect(vendor.bytesSent < 32 * 1024 * 1024, "the vendor sent \(vendor.bytesSent) bytes")
        }
    }

    @Test("a vendor that keeps sending, slowly, is cut off when the call's time is up")
    func wholeCallTimeout() async throws {
        let vendor = FakeVendor(.drip)
        try await Self.withVendor(vendor) { _, api in
            let session = try await Self.stepUp(api, userID: "xia")
            let response = try await api.onOwnConnection(.post, Self.startPath(session), bearer: session.clientToken)
            expectError(response, "IDENTITY_VERIFICATION_UNAVAILABLE", .badGateway, retryable: true)
            #expect(!vendor.dripFinished, "the server waited for the whole 30-second answer")
        }
    }

    @Test("no more calls are in flight than the server allows; a start beyond is IDENTITY_VERIFICATION_BUSY at once")
    func boundedConcurrency() async throws {
        let vendor = FakeVendor(.held)
        let limit = 16
        try await Self.withVendor(vendor) { _, api in
            var sessions: [AuthenticationSession] = []
            for index in 0..<(limit + 8) { sessions.append(try await Self.stepUp(api, userID: "user-\(index)")) }
            let busy = BusyCount()
            let responses = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for session in sessions {
                    group.addTask {
                        let response = try await api.onOwnConnection(
                            .post,
                            Self.startPath(session),
                            bearer: session.clientToken
                        )
                        if response.status == .serviceUnavailable { busy.count.withLock { $0 += 1 } }
                        return response
                    }
                }
                // The vendor holds every call until the starts beyond the limit were answered (or 15 s passed).
                for _ in 0..<750 where busy.count.withLock({ $0 }) < 8 { try await Task.sleep(for: .milliseconds(20)) }
                vendor.release()
                return try await group.reduce(into: [APIResponse]()) { $0.append($1) }
            }
            #expect(vendor.mostInFlight <= limit, "\(vendor.mostInFlight) vendor calls were in flight at once")
            #expect(responses.filter { $0.status == .created }.count == limit)
            let refused = responses.filter { $0.status != .created }
            #expect(refused.count == 8)
            for response in refused {
                expectError(response, "IDENTITY_VERIFICATION_BUSY", .serviceUnavailable, retryable: true)
            }
        }
    }
}

/// How many starts were answered `IDENTITY_VERIFICATION_BUSY` so far.
private final class BusyCount: Sendable {
    let count = Mutex(0)
}
