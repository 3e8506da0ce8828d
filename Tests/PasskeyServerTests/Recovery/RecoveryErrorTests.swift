import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// Every refusal of the recovery flow, each with its stable code, through the HTTP stack.
@Suite("Recovery refusals")
struct RecoveryErrorTests {
    /// A live server on a fresh store of `kind`, with the simulated provider and a user `ada` enrolled with one
    /// passkey.
    static func withUser(
        _ kind: StoreKind,
        configure: @escaping (inout ServerConfiguration) -> Void = { _ in },
        body: @Sendable (TestServer, API) async throws -> Void
    ) async throws {
        try await kind.withLiveServer(
            configure: { configuration in
                Recovery.simulated(&configuration)
                configure(&configuration)
            },
            { server, api in
                var phone = TestAuthenticator()
                try await api.enroll("ada", authenticator: &phone)
                try await body(server, api)
            }
        )
    }

    @Test(
        "starting: NOT_FOUND for an unknown user, INVALID_REQUEST for a malformed body",
        arguments: StoreKind.available
    )
    func startRefusals(kind: StoreKind) async throws {
        try await Self.withUser(kind) { _, api in
            expectError(try await api.startRecovery(userID: "nobody"), "NOT_FOUND", .notFound)
            expectError(try await api.backend(.post, "/v1/recoveries", json: "{"), "INVALID_REQUEST", .badRequest)
            expectError(try await api.backend(.post, "/v1/recoveries", json: "{}"), "INVALID_REQUEST", .badRequest)
            expectError(
                try await api.backend(.post, "/v1/recoveries", json: #"{"userId": "a b"}"#),
                "INVALID_REQUEST",
                .badRequest
            )
            expectError(
                try await api.send(.post, "/v1/recoveries", body: Array(#"{"userId": "ada"}"#.utf8)),
                "UNAUTHENTICATED",
                .unauthorized
            )
        }
    }

    @Test(
        "RECOVERY_NOT_SUPPORTED when recovery is turned off, or there is no identity verification",
        arguments: StoreKind.available
    )
    func notSupported(kind: StoreKind) async throws {
        try await Self.withUser(
            kind,
            configure: { $0.recovery.enabled = false },
            body: { _, api in
                expectError(try await api.startRecovery(userID: "ada"), "RECOVERY_NOT_SUPPORTED", .forbidden)
            }
        )
        try await Self.withUser(
            kind,
            configure: { $0.identityVerification.provider = .disabled },
            body: { _, api in
                expectError(try await api.startRecovery(userID: "ada"), "RECOVERY_NOT_SUPPORTED", .forbidden)
            }
        )
    }

    @Test(
        "RECOVERY_RATE_LIMITED past the attempts per user in the window, with Retry-After; other users go on",
        arguments: StoreKind.available
    )
    func rateLimited(kind: StoreKind) async throws {
        try await Self.withUser(
            kind,
            configure: { $0.recovery.maxAttemptsPerUser = 2 },
            body: { server, api in
                var phone = TestAuthenticator()
                try await api.enroll("bea", authenticator: &phone)
                #expect(try await api.startRecovery(userID: "ada").status == .created)
                #expect(try await api.startRecovery(userID: "ada").status == .created)
                let limited = try await api.startRecovery(userID: "ada")
                expectError(limited, "RECOVERY_RATE_LIMITED", .tooManyRequests, retryable: true)
                #expect(limited.headers[.retryAfter] == "86400")
                #expect(try await api.startRecovery(userID: "bea").status == .created)
                server.clock.advance(by: 86_400)
                #expect(try await api.startRecovery(userID: "ada").status == .created)
            }
        )
    }

    @Test(
        "RECOVERY_TOKEN_INVALID for a wrong token, an unknown attempt, and a token exchanged already",
        arguments: StoreKind.available
    )
    func tokenInvalid(kind: StoreKind) async throws {
        try await Self.withUser(kind) { _, api in
            let start = try await api.startRecovery(userID: "ada").expect(.created, RecoveryStart.self)
            let idv = Recovery.identityVerification(start.recoveryAttemptId)
            expectError(try await api.client(.post, idv, token: "pkrt_wrong"), "RECOVERY_TOKEN_INVALID", .unauthorized)
            expectError(
                try await api.client(.post, Recovery.identityVerification("rec_unknown"), token: start.recoveryToken),
                "RECOVERY_TOKEN_INVALID",
                .unauthorized
            )
            expectError(try await api.client(.post, idv, token: nil), "UNAUTHENTICATED", .unauthorized)
            expectError(
                try await api.recoveryRegistration(start.recoveryAttemptId, token: "pkrt_wrong"),
                "RECOVERY_TOKEN_INVALID",
                .unauthorized,
                retryable: false
            )
            let (verified, registration) = try await api.verifiedRecovery(userID: "ada")
            expectError(
                try await api.recoveryRegistration(verified.recoveryAttemptId, token: verified.recoveryToken),
                "RECOVERY_TOKEN_INVALID",
                .unauthorized
            )
            expectError(
                try await api.client(
                    .post,
                    Recovery.identityVerification(verified.recoveryAttemptId),
                    token: verified.recoveryToken
                ),
                "RECOVERY_TOKEN_INVALID",
                .unauthorized
            )
            var phone = TestAuthenticator()
            expectError(
                try await api.completeRecovery(
                    verified.recoveryAttemptId,
                    api.registrationResponse(registration.publicKey, authenticator: &phone),
                    continuationToken: "pkc_wrong"
                ),
                "RECOVERY_TOKEN_INVALID",
                .unauthorized
            )
            expectError(
                try await api.completeRecovery(
                    start.recoveryAttemptId,
                    api.registrationResponse(registration.publicKey, authenticator: &phone),
                    continuationToken: registration.continuationToken
                ),
                "RECOVERY_TOKEN_INVALID",
                .unauthorized
            )
        }
    }

    @Test(
        "RECOVERY_IDV_NOT_COMPLETED before the run is started and while it is pending or under review",
        arguments: StoreKind.available
    )
    func identityVerificationNotCompleted(kind: StoreKind) async throws {
        try await Self.withUser(kind) { _, api in
            let start = try await api.startRecovery(userID: "ada").expect(.created, RecoveryStart.self)
            let exchange = { try await api.recoveryRegistration(start.recoveryAttemptId, token: start.recoveryToken) }
            expectError(try await exchange(), "RECOVERY_IDV_NOT_COMPLETED", .conflict, retryable: true)
            let run = try await api.startRecoveryIdentityVerification(start)
            expectError(try await exchange(), "RECOVERY_IDV_NOT_COMPLETED", .conflict, retryable: true)
            _ = try await api.decide(run: run, "review", faceMatch: nil)
            expectError(try await exchange(), "RECOVERY_IDV_NOT_COMPLETED", .conflict, retryable: true)
            _ = try await api.decide(run: run, "approved", faceMatch: "pass")
            #expect(try await exchange().status == .ok)
        }
    }

    @Test(
        "a decided run that does not let the person through: the code says why",
        arguments: [
            ("approved", "fail", "RECOVERY_MATCH_FAILED", HTTPResponse.Status.forbidden),
            ("declined", "fail", "RECOVERY_MATCH_FAILED", .forbidden),
            ("declined", nil, "WORKFLOW_DECLINED", .forbidden),
            ("approved", nil, "RECOVERY_EBT_UNAVAILABLE", .conflict),
        ] as [(String, String?, String, HTTPResponse.Status)]
    )
    func refusedByIdentityVerification(
        decision: String,
        faceMatch: String?,
        code: String,
        status: HTTPResponse.Status
    )
        async throws
    {
        for kind in StoreKind.available {
            try await Self.withUser(kind) { _, api in
                let start = try await api.startRecovery(userID: "ada").expect(.created, RecoveryStart.self)
                let run = try await api.startRecoveryIdentityVerification(start)
                _ = try await api.decide(run: run, decision, faceMatch: faceMatch)
                expectError(
                    try await api.recoveryRegistration(start.recoveryAttemptId, token: start.recoveryToken),
                    code,
                    status,
                    retryable: false
                )
                // The token was not exchanged: nothing was issued.
                let view = try await api.backend(.get, Recovery.attempt(start.recoveryAttemptId))
                    .expect(.ok, RecoveryStatusView.self)
                #expect(view.status == "pending")
            }
        }
    }

    @Test("the simulated provider's autoDecision approved lets a recovery through with a matched face")
    func autoDecision() async throws {
        try await Self.withUser(
            .sqlite,
            configure: { $0.identityVerification.autoDecision = .approved },
            body: { _, api in
                let start = try await api.startRecovery(userID: "ada").expect(.created, RecoveryStart.self)
                _ = try await api.startRecoveryIdentityVerification(start)
                let registration = try await api.recoveryRegistration(
                    start.recoveryAttemptId,
                    token: start.recoveryToken
                )
                #expect(registration.status == .ok, "\(registration)")
                let view = try await api.backend(.get, Recovery.attempt(start.recoveryAttemptId))
                    .expect(.ok, RecoveryStatusView.self)
                #expect(view.identityVerification == "approved" && view.faceMatch == "pass")
            }
        )
    }

    @Test("RECOVERY_ATTEMPT_EXPIRED once the attempt's lifetime is over, at every step", arguments: StoreKind.available)
    func attemptExpired(kind: StoreKind) async throws {
        try await Self.withUser(kind) { server, api in
            let fresh = try await api.startRecovery(userID: "ada").expect(.created, RecoveryStart.self)
            var phone = TestAuthenticator()
            let (registered, _) = try await api.registeredRecovery(userID: "ada", authenticator: &phone)
            server.clock.advance(by: 900)
            expectError(
                try await api.client(
                    .post,
                    Recovery.identityVerification(fresh.recoveryAttemptId),
                    token: fresh.recoveryToken
                ),
                "RECOVERY_ATTEMPT_EXPIRED",
                .gone,
                retryable: false
            )
            expectError(
                try await api.recoveryRegistration(fresh.recoveryAttemptId, token: fresh.recoveryToken),
                "RECOVERY_ATTEMPT_EXPIRED",
                .gone
            )
            expectError(
                try await api.backend(.post, Recovery.attempt(registered.recoveryAttemptId) + "/finalize"),
                "RECOVERY_ATTEMPT_EXPIRED",
                .gone
            )
            let view = try await api.backend(.get, Recovery.attempt(fresh.recoveryAttemptId))
                .expect(.ok, RecoveryStatusView.self)
            #expect(view.status == "expired")
        }
    }

    @Test(
        "RECOVERY_ATTEMPT_CANCELLED after a cancel; a finalized recovery cannot be cancelled",
        arguments: StoreKind.available
    )
    func cancelled(kind: StoreKind) async throws {
        try await Self.withUser(kind) { _, api in
            let (start, registration) = try await api.verifiedRecovery(userID: "ada")
            let cancel = try await api.backend(.post, Recovery.attempt(start.recoveryAttemptId) + "/cancel")
            #expect(try cancel.expect(.ok, RecoveryStatusView.self).status == "cancelled")
            expectError(
                try await api.backend(.post, Recovery.attempt(start.recoveryAttemptId) + "/cancel"),
                "RECOVERY_ATTEMPT_CANCELLED",
                .conflict
            )
            var phone = TestAuthenticator()
            expectError(
                try await api.completeRecovery(
                    start.recoveryAttemptId,
                    api.registrationResponse(registration.publicKey, authenticator: &phone),
                    continuationToken: registration.continuationToken
                ),
                "RECOVERY_ATTEMPT_CANCELLED",
                .conflict,
                retryable: false
            )
            expectError(
                try await api.backend(.post, Recovery.attempt(start.recoveryAttemptId) + "/finalize"),
                "RECOVERY_ATTEMPT_CANCELLED",
                .conflict
            )
            expectError(
                try await api.recoveryRegistration(start.recoveryAttemptId, token: start.recoveryToken),
                "RECOVERY_ATTEMPT_CANCELLED",
                .conflict
            )

            let (finalized, _) = try await api.registeredRecovery(userID: "ada", authenticator: &phone)
            let path = Recovery.attempt(finalized.recoveryAttemptId)
            #expect(try await api.backend(.post, path + "/finalize").status == .ok)
            expectError(try await api.backend(.post, path + "/cancel"), "RECOVERY_ATTEMPT_CONFLICT", .conflict)
            expectError(try await api.backend(.post, path + "/finalize"), "RECOVERY_ATTEMPT_CONFLICT", .conflict)
        }
    }

    @Test(
        "finalizing before the replacement is registered is RECOVERY_ATTEMPT_CONFLICT; unknown ids NOT_FOUND",
        arguments: StoreKind.available
    )
    func finalizeTooEarly(kind: StoreKind) async throws {
        try await Self.withUser(kind) { _, api in
            let (start, _) = try await api.verifiedRecovery(userID: "ada")
            expectError(
                try await api.backend(.post, Recovery.attempt(start.recoveryAttemptId) + "/finalize"),
                "RECOVERY_ATTEMPT_CONFLICT",
                .conflict
            )
            expectError(try await api.backend(.post, Recovery.attempt("rec_x") + "/finalize"), "NOT_FOUND", .notFound)
            expectError(try await api.backend(.post, Recovery.attempt("rec_x") + "/cancel"), "NOT_FOUND", .notFound)
            expectError(try await api.backend(.get, Recovery.attempt("rec_x")), "NOT_FOUND", .notFound)
        }
    }

    @Test(
        "RECOVERY_PASSKEY_REGISTRATION_EXPIRED after the registration's expiry, at completion and at finalize",
        arguments: StoreKind.available
    )
    func registrationExpired(kind: StoreKind) async throws {
        try await Self.withUser(
            kind,
            configure: { $0.expiries.reservation = 60 },
            body: { server, api in
                let (start, registration) = try await api.verifiedRecovery(userID: "ada")
                server.clock.advance(by: 121)
                var phone = TestAuthenticator()
                expectError(
                    try await api.completeRecovery(
                        start.recoveryAttemptId,
                        api.registrationResponse(registration.publicKey, authenticator: &phone),
                        continuationToken: registration.continuationToken
                    ),
                    "RECOVERY_PASSKEY_REGISTRATION_EXPIRED",
                    .gone,
                    retryable: false
                )
                var late = TestAuthenticator()
                let (reserved, _) = try await api.registeredRecovery(userID: "ada", authenticator: &late)
                server.clock.advance(by: 61)
                expectError(
                    try await api.backend(.post, Recovery.attempt(reserved.recoveryAttemptId) + "/finalize"),
                    "RECOVERY_PASSKEY_REGISTRATION_EXPIRED",
                    .gone
                )
            }
        )
    }

    @Test(
        "RECOVERY_REGISTRATION_FAILED with the WebAuthn reason; RECOVERY_REGISTRATION_MISMATCH for another challenge",
        arguments: StoreKind.available
    )
    func registrationRefused(kind: StoreKind) async throws {
        try await Self.withUser(kind) { _, api in
            let (start, registration) = try await api.verifiedRecovery(userID: "ada")
            var phone = TestAuthenticator()
            let wrongOrigin = try api.registrationResponse(
                registration.publicKey,
                authenticator: &phone,
                origin: "https://evil.example"
            )
            let failed = try await api.completeRecovery(
                start.recoveryAttemptId,
                wrongOrigin,
                continuationToken: registration.continuationToken
            )
            expectError(failed, "RECOVERY_REGISTRATION_FAILED", .badRequest, retryable: false)
            #expect(
                try failed.json().object?["error"]?.object?["message"]?.string?.contains("ORIGIN_NOT_ALLOWED") == true
            )

            // The one challenge is spent: even a good response is refused now, saying so.
            var again = TestAuthenticator()
            let spent = try await api.completeRecovery(
                start.recoveryAttemptId,
                api.registrationResponse(registration.publicKey, authenticator: &again),
                continuationToken: registration.continuationToken
            )
            expectError(spent, "RECOVERY_REGISTRATION_FAILED", .badRequest)
            #expect(try spent.json().object?["error"]?.object?["message"]?.string?.contains("new recovery") == true)

            let (other, otherRegistration) = try await api.verifiedRecovery(userID: "ada")
            var otherOptions = otherRegistration.publicKey
            otherOptions.challenge = Base64URLBytes(Array(repeating: 7, count: 32))
            expectError(
                try await api.completeRecovery(
                    other.recoveryAttemptId,
                    api.registrationResponse(otherOptions, authenticator: &phone),
                    continuationToken: otherRegistration.continuationToken
                ),
                "RECOVERY_REGISTRATION_MISMATCH",
                .badRequest
            )
            // A response for another challenge does not reach verification: the right one still can.
            var right = TestAuthenticator()
            let registered = try await api.completeRecovery(
                other.recoveryAttemptId,
                api.registrationResponse(otherRegistration.publicKey, authenticator: &right),
                continuationToken: otherRegistration.continuationToken
            )
            #expect(registered.status == .created, "\(registered)")
            expectError(
                try await api.completeRecovery(
                    other.recoveryAttemptId,
                    api.registrationResponse(otherRegistration.publicKey, authenticator: &right),
                    continuationToken: otherRegistration.continuationToken
                ),
                "RECOVERY_ATTEMPT_CONFLICT",
                .conflict
            )
            expectError(
                try await api.send(
                    .post,
                    Recovery.complete(start.recoveryAttemptId),
                    body: Array(#"{"credential": 1}"#.utf8)
                ),
                "INVALID_REQUEST",
                .badRequest
            )
            // A malformed credential is refused only once the continuation token is checked.
            let malformed = Array(#"{"credential": {"id": "x"}, "continuationToken": "pkc_wrong"}"#.utf8)
            expectError(
                try await api.send(.post, Recovery.complete(other.recoveryAttemptId), body: malformed),
                "RECOVERY_TOKEN_INVALID",
                .unauthorized
            )
            let (third, thirdRegistration) = try await api.verifiedRecovery(userID: "ada")
            let withToken =
                #"{"credential": {"id": "x"}, "continuationToken": "\#(thirdRegistration.continuationToken)"}"#
            expectError(
                try await api.send(.post, Recovery.complete(third.recoveryAttemptId), body: Array(withToken.utf8)),
                "INVALID_REQUEST",
                .badRequest
            )
            expectError(
                try await api.send(.post, Recovery.registration(start.recoveryAttemptId), body: Array("[]".utf8)),
                "INVALID_REQUEST",
                .badRequest
            )
        }
    }
}
