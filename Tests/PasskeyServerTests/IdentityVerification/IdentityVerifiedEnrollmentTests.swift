import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// DESIGN §3 flow 1 with identity verification (the simulated provider): a passkey is created only after the run
/// of its attempt is approved, and says so.
@Suite("Identity-verified enrollment")
struct IdentityVerifiedEnrollmentTests {
    static func simulated(_ configuration: inout ServerConfiguration) {
        configuration.identityVerification.provider = .simulated
    }

    /// `POST /v1/registrations` with identity verification required.
    static func createVerifiedRegistration(_ api: API, userID: String) async throws -> (RegistrationAttempt, String) {
        let created = try await api.backend(
            .post,
            "/v1/registrations",
            json: #"{"userId": "\#(userID)", "userName": "\#(userID)", "identityVerification": "required"}"#
        )
        #expect(created.status == .created)
        let json = try created.json()
        let run = try #require(json.object?["workflowRunId"]?.string)
        #expect(run.hasPrefix("idv_"))
        #expect(json.object?["idvToken"]?.string?.isEmpty == false)
        return (try created.decode(RegistrationAttempt.self), run)
    }

    static func decide(_ api: API, _ run: String, _ decision: String) async throws -> APIResponse {
        try await api.backend(
            .post,
            "/v1/identity-verification/runs/\(run)/decision",
            json: #"{"decision": "\#(decision)"}"#
        )
    }

    @Test("pending, then approved: the passkey is created and records its run", arguments: StoreKind.available)
    func approved(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: Self.simulated) { _, api in
            let (attempt, run) = try await Self.createVerifiedRegistration(api, userID: "ada")
            let path = Path.registrationOptions(attempt.registrationAttemptId)
            expectError(
                try await api.client(.post, path, token: attempt.clientToken),
                "WORKFLOW_NOT_COMPLETED",
                .conflict,
                retryable: true
            )
            let pending = try await api.backend(.get, "/v1/identity-verification/runs/\(run)").json()
            #expect(pending.object?["status"]?.string == "pending")
            #expect(pending.object?["purpose"]?.string == "enrollment")
            #expect(try await Self.decide(api, run, "approved").status == .ok)

            var phone = TestAuthenticator()
            let options = try await api.registrationOptions(attempt)
            let response = try api.registrationResponse(options, authenticator: &phone)
            let created = try await api.completeRegistration(attempt, response)
            #expect(created.status == .created)
            let credential = try created.json()
            #expect(credential.object?["identityVerified"]?.bool == true)
            #expect(credential.object?["workflowRunId"]?.string == run)
            let id = try #require(credential.object?["credentialId"]?.string)
            let stored = try await api.backend(.get, Path.credential(id)).json()
            #expect(stored.object?["workflowRunId"]?.string == run)
            let audit = try await api.backend(.get, "/v1/audit-events?userId=ada").text
            #expect(audit.contains(#""workflowRunId":"\#(run)""#))
            expectError(try await Self.decide(api, run, "declined"), "WORKFLOW_ALREADY_DECIDED", .conflict)
        }
    }

    @Test(
        "declined and under review are refused with their codes; a review can still approve",
        arguments: StoreKind.available
    )
    func declinedAndReview(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: Self.simulated) { _, api in
            let (declined, declinedRun) = try await Self.createVerifiedRegistration(api, userID: "bob")
            #expect(try await Self.decide(api, declinedRun, "declined").status == .ok)
            var phone = TestAuthenticator()
            expectError(
                try await api.client(
                    .post,
                    Path.registrationOptions(declined.registrationAttemptId),
                    token: declined.clientToken
                ),
                "WORKFLOW_DECLINED",
                .forbidden
            )

            let (reviewed, reviewedRun) = try await Self.createVerifiedRegistration(api, userID: "cy")
            #expect(try await Self.decide(api, reviewedRun, "review").status == .ok)
            expectError(
                try await api.client(
                    .post,
                    Path.registrationOptions(reviewed.registrationAttemptId),
                    token: reviewed.clientToken
                ),
                "WORKFLOW_UNDER_REVIEW",
                .conflict
            )
            #expect(try await Self.decide(api, reviewedRun, "approved").status == .ok)
            let options = try await api.registrationOptions(reviewed)
            #expect(
                try await api.completeRegistration(reviewed, api.registrationResponse(options, authenticator: &phone))
                    .status == .created
            )
        }
    }

    @Test("a run cannot be brought to another attempt; without a provider, verification is refused by name")
    func reuseAndDisabled() async throws {
        try await StoreKind.sqlite.withLiveServer(configure: Self.simulated) { _, api in
            let (_, run) = try await Self.createVerifiedRegistration(api, userID: "dee")
            #expect(try await Self.decide(api, run, "approved").status == .ok)
            for body in [
                #"{"userId": "dee", "userName": "dee", "identityVerification": "required", "workflowRunId": "\#(run)"}"#,
                #"{"userId": "dee", "userName": "dee", "workflowRunId": "\#(run)"}"#,
            ] {
                expectError(
                    try await api.backend(.post, "/v1/registrations", json: body),
                    "WORKFLOW_RUN_REUSE_FORBIDDEN",
                    .conflict
                )
            }
            expectError(
                try await api.backend(
                    .post,
                    "/v1/registrations",
                    json: #"{"userId": "dee", "userName": "dee", "workflowRunId": "idv_nope"}"#
                ),
                "NOT_FOUND",
                .notFound
            )
        }
        let plain = try TestServer()
        try await plain.withAPI { api in
            let refused = try await api.backend(
                .post,
                "/v1/registrations",
                json: #"{"userId": "eve", "userName": "eve", "identityVerification": "required"}"#
            )
            expectError(refused, "INVALID_REQUEST", .badRequest)
            #expect(refused.text.contains("identityVerification.provider"))
            expectError(
                try await api.backend(
                    .post,
                    "/v1/identity-verification/runs/idv_x/decision",
                    json: #"{"decision": "approved"}"#
                ),
                "NOT_FOUND",
                .notFound
            )
        }
    }

    @Test("autoDecision decides every new run at once (demo mode)")
    func autoDecision() async throws {
        let server = try TestServer {
            $0.identityVerification.provider = .simulated
            $0.identityVerification.autoDecision = .approved
        }
        try await server.withAPI { api in
            let (attempt, run) = try await Self.createVerifiedRegistration(api, userID: "fay")
            #expect(
                try await api.backend(.get, "/v1/identity-verification/runs/\(run)").json().object?["status"]?.string
                    == "approved"
            )
            _ = try await api.registrationOptions(attempt)
        }
    }

    @Test("malformed decisions and run ids are 4xx with a code")
    func malformed() async throws {
        let server = try TestServer(configure: Self.simulated)
        try await server.withAPI { api in
            let (_, run) = try await Self.createVerifiedRegistration(api, userID: "gus")
            for body in [
                "", "{}", #"{"decision": "maybe"}"#, #"{"decision": "approved", "faceMatch": "perhaps"}"#, "[]",
            ] {
                let response = try await api.backend(
                    .post,
                    "/v1/identity-verification/runs/\(run)/decision",
                    json: body
                )
                #expect(response.status == .badRequest, "\(body)")
            }
            let long = String(repeating: "x", count: 300)
            #expect(try await api.backend(.get, "/v1/identity-verification/runs/\(long)").status == .notFound)
        }
    }
}
