import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// DESIGN §3 flow 4 over real HTTP: a session handed off to a phone by QR code or deep link, claimed once,
/// confirmed with the two digits, signed on the phone, and redeemed by the device that handed it off.
@Suite("Cross-device approval")
struct CrossDeviceTests {
    @Test(
        "the phone claims, confirms and signs; the first device sees each step and redeems",
        arguments: StoreKind.available
    )
    func approval(kind: StoreKind) async throws {
        try await kind.withLiveServer { server, api in
            var phone = TestAuthenticator()
            let (session, handoff) = try await api.handedOffSession("alice", phone: &phone)
            #expect(handoff.crossPlatformSessionId.hasPrefix("xps_"))
            #expect(handoff.deepLink == "\(server.origin)/approve#\(handoff.handoffToken)")
            #expect(handoff.qrCodeSVG.hasPrefix("<svg") || handoff.qrCodeSVG.hasPrefix("<?xml"))
            #expect(handoff.verificationCode.count == 2 && handoff.verificationCode.allSatisfy(\.isNumber))
            #expect(handoff.pollToken != handoff.handoffToken)
            #expect(try await api.handoffStatus(handoff) == "pending")
            // The first device's own client token no longer drives the session.
            expectError(
                try await api.client(
                    .post,
                    Path.authenticationOptions(session.biometricPasskeySessionId),
                    token: session.clientToken
                ),
                "HANDOFF_NOT_CONFIRMED",
                .conflict
            )

            let resumed = try await api.resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
            #expect(resumed.biometricPasskeySessionId == session.biometricPasskeySessionId)
            #expect(resumed.crossPlatformSessionId == handoff.crossPlatformSessionId)
            #expect(resumed.mode == "standard")
            #expect(try await api.handoffStatus(handoff) == "claimed")
            let options = Path.authenticationOptions(resumed.biometricPasskeySessionId)
            expectError(
                try await api.client(.post, options, token: resumed.clientToken),
                "HANDOFF_NOT_CONFIRMED",
                .conflict
            )
            #expect(try await api.client(.post, options, token: session.clientToken).status == .unauthorized)

            expectError(try await api.confirm(resumed, code: handoff.wrongCode), "HANDOFF_CODE_MISMATCH", .badRequest)
            let confirmed = try await api.confirm(resumed, code: handoff.verificationCode)
            #expect(confirmed.status == .ok)
            #expect(try confirmed.json().object?["status"]?.string == "confirmed")
            #expect(try await api.confirm(resumed, code: handoff.verificationCode).status == .ok)
            #expect(try await api.handoffStatus(handoff) == "confirmed")

            let request = try await api.client(.post, options, token: resumed.clientToken)
                .expect(.ok, Options<PublicKeyCredentialRequestOptionsJSON>.self).publicKey
            let completed = try await api.completeSignIn(resumed.session, api.assertion(request, authenticator: &phone))
            #expect(completed.status == .ok)
            #expect(try completed.json().object?["resultToken"] == nil)
            #expect(try await api.handoffStatus(handoff) == "approved")
            expectError(try await api.reject(resumed), "HANDOFF_ALREADY_APPROVED", .conflict)

            let result = try await api.redeem(session, handoff.pollToken)
            #expect(result.status == .ok)
            #expect(try result.json().object?["userId"]?.string == "alice")
            expectError(try await api.redeem(session, handoff.pollToken), "RESULT_ALREADY_REDEEMED", .conflict)
            #expect(try await api.handoffStatus(handoff) == "approved")
        }
    }

    @Test(
        "a step-up's transaction reaches the phone, and its identity verification runs on the phone",
        arguments: StoreKind.available
    )
    func stepUpWithIdentityVerification(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: IdentityVerifiedEnrollmentTests.simulated) { _, api in
            var phone = TestAuthenticator()
            let (session, handoff) = try await api.handedOffSession(
                "bea",
                phone: &phone,
                request:
                    #"{"userId": "bea", "mode": "stepUp", "identityVerification": "required", "transaction": {"text": "Pay 40 € to Carl"}}"#
            )
            let resumedResponse = try await api.resume(handoff.handoffToken)
            let resumedJSON = try resumedResponse.json().object
            #expect(resumedJSON?["transaction"]?.object?["text"]?.string == "Pay 40 € to Carl")
            #expect(resumedJSON?["identityVerification"]?.string == "required")
            #expect(resumedJSON?["mode"]?.string == "stepUp")
            let resumed = try resumedResponse.decode(ResumedHandoff.self)
            let start = "/biometric-passkey/mobile/cross-platform/\(resumed.crossPlatformSessionId)/idv/start"
            expectError(
                try await api.client(.post, start, token: resumed.clientToken),
                "HANDOFF_NOT_CONFIRMED",
                .conflict
            )
            _ = try await api.confirm(resumed, code: handoff.verificationCode).expect(.ok, JSONValue.self)
            // The first device's step-up path is closed: the phone verifies the person.
            expectError(
                try await api.client(
                    .post,
                    "/biometric-passkey/mobile/step-up/\(session.biometricPasskeySessionId)/idv/start",
                    token: resumed.clientToken
                ),
                "INVALID_REQUEST",
                .badRequest
            )
            let options = Path.authenticationOptions(resumed.biometricPasskeySessionId)
            expectError(
                try await api.client(.post, options, token: resumed.clientToken),
                "WORKFLOW_NOT_COMPLETED",
                .conflict,
                retryable: true
            )
            let started = try await api.client(.post, start, token: resumed.clientToken)
            #expect(started.status == .created)
            let run = try #require(try started.json().object?["workflowRunId"]?.string)
            #expect(try await IdentityVerifiedEnrollmentTests.decide(api, run, "approved").status == .ok)
            let request = try await api.client(.post, options, token: resumed.clientToken)
                .expect(.ok, Options<PublicKeyCredentialRequestOptionsJSON>.self).publicKey
            #expect(request.challenge.bytes.count == 64)
            #expect(
                try await api.completeSignIn(resumed.session, api.assertion(request, authenticator: &phone)).status
                    == .ok
            )
            let result = try await api.redeem(session, handoff.pollToken).json().object
            #expect(result?["assurance"]?.string == "passkey+uv+idv")
            #expect(result?["transaction"]?.object?["text"]?.string == "Pay 40 € to Carl")
        }
    }

    @Test(
        "a run the first device started before the handoff neither counts nor locks the phone out",
        arguments: StoreKind.available
    )
    func firstDeviceRunBeforeHandoff(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: IdentityVerifiedEnrollmentTests.simulated) { _, api in
            var phone = TestAuthenticator()
            try await api.enroll("dora", authenticator: &phone)
            let session = try await api.backend(
                .post,
                "/v1/authentications",
                json: #"{"userId": "dora", "mode": "stepUp", "identityVerification": "required"}"#
            ).expect(.created, AuthenticationSession.self)
            let early = try await api.client(
                .post,
                "/biometric-passkey/mobile/step-up/\(session.biometricPasskeySessionId)/idv/start",
                token: session.clientToken
            )
            #expect(early.status == .created)
            let earlyRun = try #require(try early.json().object?["workflowRunId"]?.string)
            #expect(try await IdentityVerifiedEnrollmentTests.decide(api, earlyRun, "approved").status == .ok)
            let handoff = try await api.handoff(session).expect(.created, Handoff.self)
            let resumed = try await api.resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
            _ = try await api.confirm(resumed, code: handoff.verificationCode).expect(.ok, JSONValue.self)
            // The first device's approval is not the phone's: the phone verifies the person itself.
            expectError(
                try await api.client(
                    .post,
                    Path.authenticationOptions(resumed.biometricPasskeySessionId),
                    token: resumed.clientToken
                ),
                "WORKFLOW_NOT_COMPLETED",
                .conflict,
                retryable: true
            )
            let started = try await api.client(
                .post,
                "/biometric-passkey/mobile/cross-platform/\(resumed.crossPlatformSessionId)/idv/start",
                token: resumed.clientToken
            )
            #expect(started.status == .created, "\(started)")
            let run = try #require(try started.json().object?["workflowRunId"]?.string)
            #expect(try await IdentityVerifiedEnrollmentTests.decide(api, run, "approved").status == .ok)
            #expect(try await api.sign(resumed, phone: &phone).status == .ok)
            let result = try await api.redeem(session, handoff.pollToken).json().object
            #expect(result?["assurance"]?.string == "passkey+uv+idv")
            #expect(result?["identityVerification"]?.object?["workflowRunId"]?.string == run)
        }
    }

    @Test("one handoff per session, and only before its options were issued", arguments: StoreKind.available)
    func handoffRefusals(kind: StoreKind) async throws {
        try await kind.withLiveServer { server, api in
            var phone = TestAuthenticator()
            let (session, _) = try await api.handedOffSession("cleo", phone: &phone)
            expectError(try await api.handoff(session), "HANDOFF_ALREADY_CREATED", .conflict)
            let (started, _) = try await api.signInSession(userID: "cleo")
            expectError(try await api.handoff(started), "HANDOFF_TOO_LATE", .conflict)
            expectError(
                try await api.backend(.post, "/v1/authentications/auth_unknown/handoff"),
                "NOT_FOUND",
                .notFound
            )
            #expect(
                try await api.send(.post, "/v1/authentications/\(session.biometricPasskeySessionId)/handoff").status
                    == .unauthorized
            )
            let fresh = try await api.backend(.post, "/v1/authentications", json: #"{"userId": "cleo"}"#)
                .expect(.created, AuthenticationSession.self)
            server.clock.advance(by: 301)
            expectError(try await api.handoff(fresh), "INVALID_OR_EXPIRED_SESSION", .gone)
        }
    }

    @Test(
        "a handoff token is claimed once: unknown, claimed and expired tokens are told apart",
        arguments: StoreKind.available
    )
    func claims(kind: StoreKind) async throws {
        try await kind.withLiveServer { server, api in
            var phone = TestAuthenticator()
            let (_, handoff) = try await api.handedOffSession("dora", phone: &phone)
            #expect(try await api.resume(handoff.handoffToken).status == .ok)
            expectError(try await api.resume(handoff.handoffToken), "HANDOFF_ALREADY_CLAIMED", .conflict)
            expectError(try await api.resume("pkh_unknown"), "HANDOFF_TOKEN_INVALID", .notFound)
            expectError(try await api.resume(String(repeating: "x", count: 500)), "HANDOFF_TOKEN_INVALID", .notFound)

            let (_, late) = try await api.handedOffSession("dora", phone: &phone, enrolled: true)
            server.clock.advance(by: 121)
            expectError(try await api.resume(late.handoffToken), "HANDOFF_EXPIRED", .gone)
            #expect(try await api.handoffStatus(late) == "expired")
        }
    }

    @Test("20 phones resume one handoff token at once: exactly one wins", arguments: StoreKind.available)
    func concurrentResumes(kind: StoreKind) async throws {
        try await kind.withLiveServer { _, api in
            var phone = TestAuthenticator()
            let (_, handoff) = try await api.handedOffSession("eve", phone: &phone)
            let results = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for _ in 0..<20 { group.addTask { try await api.resume(handoff.handoffToken) } }
                return try await group.reduce(into: [APIResponse]()) { $0.append($1) }
            }
            #expect(results.count { $0.status == .ok } == 1)
            for loser in results where loser.status != .ok {
                expectError(loser, "HANDOFF_ALREADY_CLAIMED", .conflict)
            }
        }
    }

    @Test(
        "three wrong numbers reject the handoff; nothing can be approved or redeemed after",
        arguments: StoreKind.available
    )
    func wrongCodes(kind: StoreKind) async throws {
        try await kind.withLiveServer { _, api in
            var phone = TestAuthenticator()
            let (session, handoff) = try await api.handedOffSession("finn", phone: &phone)
            let resumed = try await api.resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
            for left in [2, 1, 0] {
                let response = try await api.confirm(resumed, code: handoff.wrongCode)
                expectError(response, "HANDOFF_CODE_MISMATCH", .badRequest)
                let message = try response.json().object?["error"]?.object?["message"]?.string ?? ""
                #expect(left == 0 ? message.contains("rejected") : message.contains("\(left) more"))
            }
            #expect(try await api.handoffStatus(handoff) == "rejected")
            expectError(try await api.confirm(resumed, code: handoff.verificationCode), "HANDOFF_REJECTED", .conflict)
            expectError(
                try await api.client(
                    .post,
                    Path.authenticationOptions(session.biometricPasskeySessionId),
                    token: resumed.clientToken
                ),
                "HANDOFF_REJECTED",
                .conflict
            )
            expectError(
                try await api.confirm(resumed, code: "7"),
                "INVALID_REQUEST",
                .badRequest
            )
        }
    }

    @Test(
        "the person says it was not them: the first device reads rejected, and a late approval is not redeemed",
        arguments: StoreKind.available
    )
    func rejection(kind: StoreKind) async throws {
        try await kind.withLiveServer { server, api in
            var phone = TestAuthenticator()
            let (session, handoff) = try await api.handedOffSession("gus", phone: &phone)
            let resumed = try await api.resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
            _ = try await api.confirm(resumed, code: handoff.verificationCode).expect(.ok, JSONValue.self)
            let request = try await api.client(
                .post,
                Path.authenticationOptions(resumed.biometricPasskeySessionId),
                token: resumed.clientToken
            ).expect(.ok, Options<PublicKeyCredentialRequestOptionsJSON>.self).publicKey
            let rejected = try await api.reject(resumed)
            #expect(rejected.status == .ok)
            #expect(try rejected.json().object?["status"]?.string == "rejected")
            #expect(try await api.handoffStatus(handoff) == "rejected")
            expectError(
                try await api.completeSignIn(resumed.session, api.assertion(request, authenticator: &phone)),
                "HANDOFF_REJECTED",
                .conflict
            )
            #expect(try await api.redeem(session, handoff.pollToken).status != .ok)
            expectError(try await api.reject(resumed), "HANDOFF_REJECTED", .conflict)
        }
    }

    @Test("status, confirm and reject need their own tokens, and say nothing to others", arguments: StoreKind.available)
    func tokens(kind: StoreKind) async throws {
        try await kind.withLiveServer { server, api in
            var phone = TestAuthenticator()
            let (session, handoff) = try await api.handedOffSession("hal", phone: &phone)
            let status = "/v1/client/cross-platform/\(handoff.crossPlatformSessionId)/status"
            #expect(try await api.client(.get, status, token: session.clientToken).status == .unauthorized)
            #expect(try await api.client(.get, status, token: handoff.handoffToken).status == .unauthorized)
            #expect(try await api.client(.get, status, token: nil).status == .unauthorized)
            #expect(
                try await api.client(.get, "/v1/client/cross-platform/xps_unknown/status", token: handoff.pollToken)
                    .status
                    == .unauthorized
            )
            let resumed = try await api.resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
            let confirm = "/v1/client/cross-platform/\(resumed.crossPlatformSessionId)/confirm"
            let body = #"{"verificationCode": "\#(handoff.verificationCode)"}"#
            #expect(try await api.client(.post, confirm, token: handoff.pollToken, json: body).status == .unauthorized)
            #expect(
                try await api.client(.post, confirm, token: session.clientToken, json: body).status == .unauthorized
            )
            for bad in ["{}", #"{"verificationCode": 12}"#, "[]", "not json"] {
                let response = try await api.client(.post, confirm, token: resumed.clientToken, json: bad)
                #expect(response.status == .badRequest, "\(bad)")
            }
            #expect(try await api.handoffStatus(handoff) == "claimed")
        }
    }

    @Test("the status as server-sent events: one event per change, ending at the final one")
    func events() async throws {
        let server = try TestServer()
        try await server.withLiveAPI { api in
            var phone = TestAuthenticator()
            let (_, handoff) = try await api.handedOffSession("ida", phone: &phone)
            let port = try #require(api.client.port)
            let stream = try HandoffEventStream(port: port, handoff: handoff)
            #expect(try await stream.next() == "pending")
            #expect(stream.head.contains("Content-Type: text/event-stream"))
            let resumed = try await api.resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
            #expect(try await stream.next() == "claimed")
            _ = try await api.confirm(resumed, code: handoff.verificationCode).expect(.ok, JSONValue.self)
            #expect(try await stream.next() == "confirmed")
            _ = try await api.sign(resumed, phone: &phone)
            #expect(try await stream.next() == "approved")
            #expect(try await stream.next() == nil, "the stream ends after a final status")
        }
    }
}

extension CrossDeviceTests {
    @Test("failed claims from one address are limited; a successful claim is not counted")
    func claimLimit() async throws {
        let server = try TestServer { $0.limits.failedAssertionsPerIP = 3 }
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let (_, handoff) = try await api.handedOffSession("jo", phone: &phone)
            #expect(try await api.resume(handoff.handoffToken).status == .ok)
            for _ in 0..<3 { expectError(try await api.resume("pkh_guess"), "HANDOFF_TOKEN_INVALID", .notFound) }
            let (_, next) = try await api.handedOffSession("jo", phone: &phone, enrolled: true)
            let limited = try await api.resume(next.handoffToken)
            expectError(limited, "RATE_LIMITED", .tooManyRequests, retryable: true)
            #expect(limited.headers[.retryAfter] != nil)
        }
    }
}

extension CrossDeviceTests {
    @Test("past limits.maxEventStreams a stream is refused with 429 RATE_LIMITED; the one open keeps streaming")
    func streamLimit() async throws {
        let server = try TestServer { $0.limits.maxEventStreams = 1 }
        try await server.withLiveAPI { api in
            var phone = TestAuthenticator()
            let (_, handoff) = try await api.handedOffSession("kim", phone: &phone)
            let port = try #require(api.client.port)
            let open = try HandoffEventStream(port: port, handoff: handoff)
            // The stream takes its place before its response starts, so once its first event is out it holds it.
            #expect(try await open.next() == "pending")
            let refused = try await HandoffEventStream(port: port, handoff: handoff).refusal()
            Self.expectStreamRefused(refused, naming: "maxEventStreams")
            _ = try await api.resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
            #expect(try await open.next() == "claimed")
        }
    }
}

extension CrossDeviceTests {
    @Test("crossDevice.linkBase makes the link; without it and without a web origin there is none")
    func links() async throws {
        let app = try TestServer { $0.crossDevice.linkBase = "myapp://approve" }
        try await app.withAPI { api in
            var phone = TestAuthenticator()
            let (_, handoff) = try await api.handedOffSession("lin", phone: &phone)
            #expect(handoff.deepLink == "myapp://approve#\(handoff.handoffToken)")
        }
        let appsOnly = try TestServer {
            $0.webOrigins = []
            $0.appleApps = [.init(teamId: "ABCDE12345", bundleId: "com.example.app")]
        }
        try await appsOnly.withAPI { api in
            let session = try await api.backend(.post, "/v1/authentications", json: "{}")
                .expect(.created, AuthenticationSession.self)
            expectError(try await api.handoff(session), "HANDOFF_NOT_AVAILABLE", .badRequest)
        }
        for bad in [
            "https://example.com/approve#x", "approve", "https://example.com/\(String(repeating: "a", count: 120))",
        ] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try TestServer { $0.crossDevice.linkBase = bad } }
        }
    }
}

extension CrossDeviceTests {
    @Test("a quiet stream sends a heartbeat comment every 15 seconds, and still the change after it")
    func heartbeat() async throws {
        let server = try TestServer()
        try await server.withLiveAPI { api in
            var phone = TestAuthenticator()
            let (_, handoff) = try await api.handedOffSession("hal", phone: &phone)
            let stream = try HandoffEventStream(
                port: try #require(api.client.port),
                handoff: handoff,
                receiveTimeout: .seconds(45)
            )
            #expect(try await stream.next() == "pending")
            try await stream.heartbeat()
            _ = try await api.resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
            #expect(try await stream.next() == "claimed")
        }
    }
}
