import Crypto
import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// DESIGN §3 flow 3: step-up with the transaction's digest in the challenge, and with identity verification.
@Suite("Step-up")
struct StepUpTests {
    /// "Pay 120,00 € to Zoë" with the ë decomposed: the server signs the NFC form.
    static let decomposed = "Pay 120,00 € to Zoe\u{0308}\nReference: INV-7"
    static let composed = "Pay 120,00 € to Zo\u{00EB}\nReference: INV-7"

    static func startStepUp(_ api: API, userID: String, extra: String) async throws -> APIResponse {
        try await api.backend(
            .post,
            "/v1/authentications",
            json: #"{"userId": "\#(userID)", "mode": "stepUp"\#(extra)}"#
        )
    }

    static func options(_ api: API, _ session: AuthenticationSession) async throws -> APIResponse {
        try await api.client(
            .post,
            Path.authenticationOptions(session.biometricPasskeySessionId),
            token: session.clientToken
        )
    }

    @Test(
        "the challenge is 32 random bytes and the digest of the NFC text; redeem returns text, digest and assurance",
        arguments: StoreKind.available
    )
    func transactionBound(kind: StoreKind) async throws {
        try await kind.withLiveServer { _, api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let text = try JSONSerialization.data(withJSONObject: ["text": Self.decomposed]).utf8String
            let created = try await Self.startStepUp(api, userID: "alice", extra: #", "transaction": \#(text)"#)
            #expect(created.status == .created)
            let digest = Array(SHA256.hash(data: Array(Self.composed.utf8)))
            let createdJSON = try created.json()
            #expect(createdJSON.object?["transaction"]?.object?["text"]?.string == Self.composed)
            #expect(createdJSON.object?["transaction"]?.object?["digest"]?.string == Base64URL.encode(digest))
            let session = try created.decode(AuthenticationSession.self)

            let optionsResponse = try await Self.options(api, session)
            #expect(optionsResponse.status == .ok)
            let options = try optionsResponse.decode(Options<PublicKeyCredentialRequestOptionsJSON>.self).publicKey
            #expect(options.challenge.bytes.count == 64)
            #expect(Array(options.challenge.bytes.suffix(32)) == digest)
            #expect(options.userVerification == .required)
            #expect(try optionsResponse.json().object?["transaction"]?.object?["text"]?.string == Self.composed)
            expectError(try await Self.options(api, session), "CHALLENGE_REFRESH_FORBIDDEN", .conflict)

            let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                .expect(.ok, SignInCompletion.self)
            let result = try await api.redeem(session, completion.resultToken).json().object
            #expect(result?["mode"]?.string == "stepUp")
            #expect(result?["assurance"]?.string == "passkey+uv")
            #expect(result?["transaction"]?.object?["text"]?.string == Self.composed)
            #expect(result?["transaction"]?.object?["digest"]?.string == Base64URL.encode(digest))
            #expect(result?["identityVerification"] == nil)
        }
    }

    @Test(
        "with identity verification: started by the client, refused until approved, recorded in the result",
        arguments: StoreKind.available
    )
    func identityVerified(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: IdentityVerifiedEnrollmentTests.simulated) { _, api in
            var phone = TestAuthenticator()
            try await api.enroll("bea", authenticator: &phone)
            let created = try await Self.startStepUp(
                api,
                userID: "bea",
                extra: #", "identityVerification": "required", "transaction": {"text": "Close the account"}"#
            )
            #expect(try created.json().object?["identityVerification"]?.string == "required")
            let session = try created.decode(AuthenticationSession.self)
            expectError(try await Self.options(api, session), "WORKFLOW_NOT_COMPLETED", .conflict, retryable: true)

            let start = "/biometric-passkey/mobile/step-up/\(session.biometricPasskeySessionId)/idv/start"
            let started = try await api.client(.post, start, token: session.clientToken)
            #expect(started.status == .created)
            let run = try #require(try started.json().object?["workflowRunId"]?.string)
            #expect(try started.json().object?["idvToken"]?.string?.isEmpty == false)
            expectError(
                try await api.client(.post, start, token: session.clientToken),
                "IDV_ALREADY_STARTED",
                .conflict
            )
            #expect(try await api.client(.post, start, token: "pkc_wrong").status == .unauthorized)
            expectError(try await Self.options(api, session), "WORKFLOW_NOT_COMPLETED", .conflict, retryable: true)
            #expect(try await IdentityVerifiedEnrollmentTests.decide(api, run, "approved").status == .ok)

            let options = try await Self.options(api, session).decode(
                Options<PublicKeyCredentialRequestOptionsJSON>.self
            ).publicKey
            let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                .expect(.ok, SignInCompletion.self)
            let result = try await api.redeem(session, completion.resultToken).json().object
            #expect(result?["assurance"]?.string == "passkey+uv+idv")
            #expect(result?["identityVerification"]?.object?["workflowRunId"]?.string == run)
            #expect(result?["identityVerification"]?.object?["decision"]?.string == "approved")
        }
    }

    @Test(
        "a run approved with a failed face match is not identity verification; a simulated run says so everywhere",
        arguments: StoreKind.available
    )
    func failedFaceMatch(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: IdentityVerifiedEnrollmentTests.simulated) { _, api in
            var phone = TestAuthenticator()
            try await api.enroll("gus", authenticator: &phone)
            let session = try await Self.startStepUp(
                api,
                userID: "gus",
                extra: #", "identityVerification": "required""#
            )
            .decode(AuthenticationSession.self)
            let start = "/biometric-passkey/mobile/step-up/\(session.biometricPasskeySessionId)/idv/start"
            let started = try await api.client(.post, start, token: session.clientToken).json().object
            #expect(started?["simulated"]?.bool == true)
            let run = try #require(started?["workflowRunId"]?.string)
            let decided = try await api.backend(
                .post,
                "/v1/identity-verification/runs/\(run)/decision",
                json: #"{"decision": "approved", "faceMatch": "fail"}"#
            )
            #expect(try decided.json().object?["simulated"]?.bool == true)
            let options = try await Self.options(api, session).decode(
                Options<PublicKeyCredentialRequestOptionsJSON>.self
            ).publicKey
            let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                .expect(.ok, SignInCompletion.self)
            let result = try await api.redeem(session, completion.resultToken).json().object
            #expect(result?["assurance"]?.string == "passkey+uv")
            let outcome = result?["identityVerification"]?.object
            #expect(outcome?["faceMatch"]?.string == "fail")
            #expect(outcome?["simulated"]?.bool == true)
            let events =
                try await api.backend(.get, "/v1/audit-events?userId=gus").json().object?["events"]?.array ?? []
            let runEvents = events.filter { $0.object?["subject"]?.string == run }
            #expect(runEvents.count == 2)
            for event in runEvents {
                #expect(event.object?["details"]?.object?["provider"]?.string == "simulated", "\(event)")
            }
        }
    }

    @Test("a passkey outside the allow-list the options gave out is refused")
    func allowList() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("cleo", authenticator: &phone)
            let session = try await Self.startStepUp(api, userID: "cleo", extra: "").decode(AuthenticationSession.self)
            let options = try await Self.options(api, session).decode(
                Options<PublicKeyCredentialRequestOptionsJSON>.self
            ).publicKey
            var laptop = TestAuthenticator()
            try await api.enroll("cleo", authenticator: &laptop)
            expectError(
                try await api.completeSignIn(session, api.assertion(options, authenticator: &laptop)),
                "STEP_UP_AUTH_SESSION_MISMATCH",
                .forbidden
            )
        }
    }

    @Test("bad transactions, the policy's requirements, and step-up fields on a standard sign-in are refused")
    func refusals() async throws {
        let server = try TestServer {
            $0.policy.stepUp.requireTransaction = true
        }
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("dan", authenticator: &phone)
            let long = String(repeating: "x", count: 1001)
            for extra in [
                "", #", "transaction": {"text": ""}"#, #", "transaction": {"text": " \n "}"#,
                #", "transaction": {"text": "\#(long)"}"#, #", "transaction": {"text": "a\u0007b"}"#,
                #", "transaction": {"text": "pay \u202Eevil"}"#, #", "transaction": "text""#,
                #", "transaction": {"text": "ok"}, "identityVerification": "required""#,
                #", "transaction": {"text": "ok"}, "identityVerification": "maybe""#,
            ] {
                let response = try await Self.startStepUp(api, userID: "dan", extra: extra)
                #expect(response.status == .badRequest, "\(extra)")
            }
            #expect(
                try await Self.startStepUp(api, userID: "dan", extra: #", "transaction": {"text": "Pay"}"#).status
                    == .created
            )
            let standard = try await api.backend(
                .post,
                "/v1/authentications",
                json: #"{"userId": "dan", "transaction": {"text": "Pay"}}"#
            )
            expectError(standard, "INVALID_REQUEST", .badRequest)
        }
    }
}

extension Data {
    fileprivate var utf8String: String { String(decoding: self, as: UTF8.self) }
}
