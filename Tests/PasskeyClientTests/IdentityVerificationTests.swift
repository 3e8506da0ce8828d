import Foundation
import PasskeyClient
import PasskeyTesting
import Testing
import WebAuthn

/// Identity verification before enrollment and step-up, against a scripted server: the verifier runs, then the SDK
/// waits while the decision is pending and stops at once when it is declined or under review.
@Suite("Identity verification: enrollment and step-up")
struct IdentityVerificationTests {
    static let start = "/biometric-passkey/mobile/step-up/auth_1/idv/start"
    static let registrationOptions = "/v1/client/registrations/reg_1/options"
    static let registrationComplete = "/v1/client/registrations/reg_1/complete"
    static let started = ScriptedServer.json(
        #"{"workflowRunId": "idv_run1", "idvToken": "idvt_secret", "expiresAt": "2030-01-01T00:00:00Z"}"#,
        status: 201
    )
    static let pending = ScriptedServer.error(409, "WORKFLOW_NOT_COMPLETED", retryable: true)

    static func enrollment(verification: Bool = true) -> EnrollmentInput {
        EnrollmentInput(
            registrationAttemptId: "reg_1",
            clientToken: "pkc_token",
            userId: "alice",
            identityVerification: verification
                ? .init(workflowRunId: "idv_enrol", idvToken: "idvt_enrol") : nil
        )
    }

    @Test(
        "step-up: starts the verification with the session's token, runs the verifier, waits out WORKFLOW_NOT_COMPLETED, signs"
    )
    func stepUpWaitsForApproval() async throws {
        let server = ScriptedServer()
        await server.on("POST", Self.start, Self.started)
        await server.on(
            "POST",
            StepUpTests.options,
            Self.pending,
            Self.pending,
            ScriptedServer.authenticationOptions(challenge: StepUpTests.randomHalf, transaction: nil)
        )
        await server.on("POST", StepUpTests.complete, ScriptedServer.completedAuthentication)
        let verifier = RecordingIdentityVerifier()
        let authenticator = try await StepUpTests.authenticatorWithPasskey()
        let client = try StepUpTests.client(server, authenticator, verifier: verifier)

        let result = try await client.authenticate(StepUpTests.stepUp(nil, identityVerification: true))

        #expect(result.resultToken == "pkr_result")
        let asked = await verifier.requests
        #expect(asked.map(\.workflowRunId) == ["idv_run1"])
        #expect(asked.map(\.idvToken) == ["idvt_secret"])
        #expect(asked.map(\.purpose) == [.stepUp])
        #expect(asked.first?.expiresAt == ISO8601DateFormatter().date(from: "2030-01-01T00:00:00Z"))
        #expect(
            await server.calls == [
                "POST \(Self.start)", "POST \(StepUpTests.options)", "POST \(StepUpTests.options)",
                "POST \(StepUpTests.options)", "POST \(StepUpTests.complete)",
            ]
        )
        let startRequest = try #require(await server.requests.first)
        #expect(startRequest.headers["Authorization"] == "Bearer pkc_token")
        #expect(startRequest.body == Array("{}".utf8))
        #expect(await authenticator.assertionRequests.count == 1)
    }

    @Test("the wait is bounded: WORKFLOW_NOT_COMPLETED after identityVerificationWait, nothing signed")
    func boundedWait() async throws {
        let server = ScriptedServer()
        await server.on("POST", Self.start, Self.started)
        await server.on("POST", StepUpTests.options, Self.pending)
        let authenticator = try await StepUpTests.authenticatorWithPasskey()
        let client = try StepUpTests.client(
            server,
            authenticator,
            verifier: RecordingIdentityVerifier(),
            wait: .milliseconds(600)
        )
        let clock = ContinuousClock()
        let began = clock.now
        let error = await passkeyError {
            _ = try await client.authenticate(StepUpTests.stepUp(nil, identityVerification: true))
        }
        let elapsed = began.duration(to: clock.now)
        #expect(error?.code == .workflowNotCompleted)
        #expect(error?.isRetryable == true)
        #expect(error?.serverCode == "WORKFLOW_NOT_COMPLETED")
        #expect(elapsed >= .milliseconds(600), "\(elapsed)")
        // At 0, 250 and 600 ms (the first delay, then what is left of the wait); a loaded machine may fit fewer.
        #expect((2...3).contains(await server.count("POST", StepUpTests.options)))
        #expect(await authenticator.assertionRequests.isEmpty)
    }

    @Test(
        "WORKFLOW_UNDER_REVIEW and WORKFLOW_DECLINED end the step-up at once",
        arguments: [
            ("WORKFLOW_UNDER_REVIEW", 409, PasskeyError.Code.workflowUnderReview),
            ("WORKFLOW_DECLINED", 403, .workflowDeclined),
        ]
    )
    func stepUpRefused(serverCode: String, status: Int, code: PasskeyError.Code) async throws {
        let server = ScriptedServer()
        await server.on("POST", Self.start, Self.started)
        await server.on(
            "POST",
            StepUpTests.options,
            ScriptedServer.error(status, serverCode, retryable: false),
            ScriptedServer.authenticationOptions(challenge: StepUpTests.randomHalf, transaction: nil)
        )
        let authenticator = try await StepUpTests.authenticatorWithPasskey()
        let client = try StepUpTests.client(server, authenticator, verifier: RecordingIdentityVerifier())
        let error = await passkeyError {
            _ = try await client.authenticate(StepUpTests.stepUp(nil, identityVerification: true))
        }
        #expect(error?.code == code)
        #expect(error?.isRetryable == false)
        #expect(await server.count("POST", StepUpTests.options) == 1)
        #expect(await authenticator.assertionRequests.isEmpty)
    }

    @Test("a second start of the session's verification is IDV_ALREADY_STARTED; the verifier is not run")
    func alreadyStarted() async throws {
        let server = ScriptedServer()
        await server.on("POST", Self.start, ScriptedServer.error(409, "IDV_ALREADY_STARTED", retryable: false))
        let verifier = RecordingIdentityVerifier()
        let client = try StepUpTests.client(server, ScriptableAuthenticator(), verifier: verifier)
        let error = await passkeyError {
            _ = try await client.authenticate(StepUpTests.stepUp(nil, identityVerification: true))
        }
        #expect(error?.code == .identityVerificationAlreadyStarted)
        #expect(await verifier.requests.isEmpty)
    }

    @Test("the verifier's failure (the user gave up) ends the flow before any options are asked for")
    func verifierFails() async throws {
        let server = ScriptedServer()
        await server.on("POST", Self.start, Self.started)
        let verifier = RecordingIdentityVerifier(failing: PasskeyError(.userCancelled, "gave up"))
        let client = try StepUpTests.client(server, ScriptableAuthenticator(), verifier: verifier)
        let error = await passkeyError {
            _ = try await client.authenticate(StepUpTests.stepUp(nil, identityVerification: true))
        }
        #expect(error?.code == .userCancelled)
        #expect(await server.calls == ["POST \(Self.start)"])
    }

    @Test(
        "identity verification without an identityVerifier is INVALID_CONFIGURATION naming the parameter; nothing is sent"
    )
    func noVerifier() async throws {
        let server = ScriptedServer()
        let client = try StepUpTests.client(server, ScriptableAuthenticator())
        let stepUp = await passkeyError {
            _ = try await client.authenticate(StepUpTests.stepUp(nil, identityVerification: true))
        }
        #expect(stepUp?.code == .invalidConfiguration)
        #expect(stepUp?.message.contains("AuthenticationInput.StepUp.identityVerification") == true)
        let enrollment = await passkeyError { _ = try await client.enroll(Self.enrollment()) }
        #expect(enrollment?.code == .invalidConfiguration)
        #expect(enrollment?.message.contains("EnrollmentInput.identityVerification") == true)
        #expect(await server.calls.isEmpty)
    }

    @Test(
        "enrollment: the verifier runs for the attempt's run, WORKFLOW_NOT_COMPLETED is waited out, the passkey is made"
    )
    func enrollmentWaitsForApproval() async throws {
        let server = ScriptedServer()
        await server.on(
            "POST",
            Self.registrationOptions,
            Self.pending,
            ScriptedServer.registrationOptions()
        )
        await server.on("POST", Self.registrationComplete, ScriptedServer.completedRegistration)
        let verifier = RecordingIdentityVerifier()
        let authenticator = ScriptableAuthenticator()
        let client = try StepUpTests.client(server, authenticator, verifier: verifier)

        let result = try await client.enroll(Self.enrollment())

        #expect(result.status == .enrolled)
        let asked = await verifier.requests
        #expect(asked == [.init(workflowRunId: "idv_enrol", idvToken: "idvt_enrol", purpose: .enrollment)])
        #expect(await server.count("POST", Self.registrationOptions) == 2)
        #expect(await authenticator.creationRequests.count == 1)
    }

    @Test(
        "enrollment: WORKFLOW_UNDER_REVIEW and WORKFLOW_DECLINED fail at once",
        arguments: [
            ("WORKFLOW_UNDER_REVIEW", 409, PasskeyError.Code.workflowUnderReview),
            ("WORKFLOW_DECLINED", 403, .workflowDeclined),
        ]
    )
    func enrollmentRefused(serverCode: String, status: Int, code: PasskeyError.Code) async throws {
        let server = ScriptedServer()
        await server.on(
            "POST",
            Self.registrationOptions,
            ScriptedServer.error(status, serverCode, retryable: false),
            ScriptedServer.registrationOptions()
        )
        let authenticator = ScriptableAuthenticator()
        let client = try StepUpTests.client(server, authenticator, verifier: RecordingIdentityVerifier())
        let error = await passkeyError { _ = try await client.enroll(Self.enrollment()) }
        #expect(error?.code == code)
        #expect(await server.count("POST", Self.registrationOptions) == 1)
        #expect(await authenticator.creationRequests.isEmpty)
    }

    @Test("without identity verification in the input, WORKFLOW_NOT_COMPLETED is not waited out")
    func noWaitWithoutVerification() async throws {
        let server = ScriptedServer()
        await server.on("POST", Self.registrationOptions, Self.pending, ScriptedServer.registrationOptions())
        let client = try StepUpTests.client(server, ScriptableAuthenticator(), verifier: RecordingIdentityVerifier())
        let error = await passkeyError { _ = try await client.enroll(Self.enrollment(verification: false)) }
        #expect(error?.code == .workflowNotCompleted)
        #expect(await server.count("POST", Self.registrationOptions) == 1)
    }

    @Test("the simulated verifier decides the run through the backend API with its API key")
    func simulatedVerifier() async throws {
        let server = ScriptedServer()
        let run = """
            {"workflowRunId": "idv_run1", "purpose": "stepUp", "userId": "alice", "status": "review",
             "faceMatch": "fail", "createdAt": "2030-01-01T00:00:00Z", "updatedAt": "2030-01-01T00:00:01Z",
             "expiresAt": "2030-01-01T00:10:00Z"}
            """
        await server.on("POST", "/v1/identity-verification/runs/idv_run1/decision", ScriptedServer.json(run))
        let backend = PasskeyBackendAPI(serverBaseURL: ScriptedServer.baseURL, apiKey: "pk_key", transport: server)

        try await SimulatedIdentityVerifier(backend: backend).verify(
            IdentityVerificationRequest(workflowRunId: "idv_run1", idvToken: "t", purpose: .stepUp)
        )
        try await SimulatedIdentityVerifier(backend: backend, decision: .review, faceMatch: .fail).verify(
            IdentityVerificationRequest(workflowRunId: "idv_run1", idvToken: "t", purpose: .stepUp)
        )

        let requests = await server.requests
        #expect(requests.map { $0.headers["Authorization"] } == ["Bearer pk_key", "Bearer pk_key"])
        let bodies = try requests.map {
            try JSONSerialization.jsonObject(with: Data($0.body ?? [])) as? [String: String]
        }
        #expect(bodies == [["decision": "approved"], ["decision": "review", "faceMatch": "fail"]])

        let decided = try await backend.decideIdentityVerificationRun(workflowRunId: "idv_run1", decision: .review)
        #expect(decided.status == "review")
        #expect(decided.faceMatch == "fail")
        #expect(decided.purpose == "stepUp")
    }

    @Test("the backend API sends the step-up's transaction and identity verification, and reads them back")
    func backendBodies() async throws {
        let server = ScriptedServer()
        let transaction = TransactionDetails(text: StepUpTests.payment)
        await server.on(
            "POST",
            "/v1/authentications",
            ScriptedServer.json(
                #"{"biometricPasskeySessionId": "auth_1", "clientToken": "pkc_t", "expiresAt": "2030-01-01T00:00:00Z", "transaction": {"text": "\#(transaction.text)", "digest": "\#(transaction.digest)"}, "identityVerification": "required"}"#
            )
        )
        await server.on(
            "POST",
            "/v1/authentications/auth_1/redeem",
            ScriptedServer.json(
                #"{"userId": "alice", "credentialId": "Y3JlZA", "userVerified": true, "backupEligible": false, "backupState": false, "mode": "stepUp", "completedAt": "2030-01-01T00:00:00Z", "transaction": {"text": "\#(transaction.text)", "digest": "\#(transaction.digest)"}, "assurance": "passkey+uv+idv", "identityVerification": {"workflowRunId": "idv_run1", "decision": "approved"}}"#
            )
        )
        let backend = PasskeyBackendAPI(serverBaseURL: ScriptedServer.baseURL, apiKey: "pk_key", transport: server)
        let session = try await backend.createAuthentication(
            userId: "alice",
            mode: "stepUp",
            transaction: StepUpTests.payment,
            requireIdentityVerification: true
        )
        #expect(session.transaction == transaction)
        #expect(session.requiresIdentityVerification)
        let body = try #require(await server.requests.first?.body)
        let sent = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect((sent["transaction"] as? [String: String]) == ["text": StepUpTests.payment])
        #expect(sent["identityVerification"] as? String == "required")
        #expect(sent["mode"] as? String == "stepUp")

        let redeemed = try await backend.redeemAuthentication(sessionId: "auth_1", resultToken: "pkr")
        #expect(redeemed.assurance == "passkey+uv+idv")
        #expect(redeemed.transaction == transaction)
        #expect(redeemed.identityVerification?.decision == "approved")
    }
}
