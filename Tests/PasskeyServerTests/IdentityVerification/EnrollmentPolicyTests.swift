import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// `policy.enrollment.requireIdentityVerification`: every registration — the backend's and the demo's sign-up —
/// verifies the person first, whatever it asks for; asking for none is refused by the setting's name, and the server
/// will not start with the policy but without a provider. Over a real socket, on SQLite and PostgreSQL.
@Suite("Enrollment policy: identity verification for every registration")
struct EnrollmentPolicyTests {
    static let setting = "policy.enrollment.requireIdentityVerification"

    static func policy(_ configuration: inout ServerConfiguration) {
        configuration.identityVerification.provider = .simulated
        configuration.policy.enrollment.requireIdentityVerification = true
    }

    /// The run the attempt's creation started, approved through the backend API; then the passkey is created.
    static func verifyAndRegister(_ api: API, _ created: APIResponse) async throws -> JSONValue {
        let attempt = try created.expect(.created, RegistrationAttempt.self)
        let run = try #require(try created.json().object?["workflowRunId"]?.string, "the attempt started no run")
        expectError(
            try await api.client(
                .post,
                Path.registrationOptions(attempt.registrationAttemptId),
                token: attempt.clientToken
            ),
            "WORKFLOW_NOT_COMPLETED",
            .conflict,
            retryable: true
        )
        #expect(try await IdentityVerifiedEnrollmentTests.decide(api, run, "approved").status == .ok)
        var phone = TestAuthenticator()
        let options = try await api.registrationOptions(attempt)
        let credential = try await api.completeRegistration(
            attempt,
            api.registrationResponse(options, authenticator: &phone)
        )
        #expect(credential.status == .created, "\(credential)")
        let json = try credential.json()
        #expect(json.object?["identityVerified"]?.bool == true)
        #expect(json.object?["workflowRunId"]?.string == run)
        return json
    }

    @Test(
        "a backend registration that says nothing, or 'required', verifies the person",
        arguments: StoreKind.available
    )
    func backendRegistrationsVerify(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: Self.policy) { _, api in
            for (user, field) in [("ada", ""), ("bea", #", "identityVerification": "required""#)] {
                let created = try await api.backend(
                    .post,
                    "/v1/registrations",
                    json: #"{"userId": "\#(user)", "userName": "\#(user)"\#(field)}"#
                )
                _ = try await Self.verifyAndRegister(api, created)
            }
        }
    }

    @Test(
        "asking for no verification ('none' or 'optional') is refused, naming the setting",
        arguments: ["none", "optional"]
    )
    func optingOutIsRefused(_ value: String) async throws {
        try await StoreKind.sqlite.withLiveServer(configure: Self.policy) { _, api in
            let refused = try await api.backend(
                .post,
                "/v1/registrations",
                json: #"{"userId": "cy", "userName": "cy", "identityVerification": "\#(value)"}"#
            )
            expectError(refused, "INVALID_REQUEST", .badRequest)
            #expect(refused.text.contains(Self.setting), "\(refused)")
            #expect(refused.text.contains("'\(value)'"))
            let users = try await api.users()
            #expect(users.users.isEmpty, "a refused registration creates no user")
        }
    }

    @Test("without the policy, 'optional' is 'none': no run is started")
    func optionalWithoutPolicy() async throws {
        try await StoreKind.sqlite.withLiveServer(configure: IdentityVerifiedEnrollmentTests.simulated) { _, api in
            let created = try await api.backend(
                .post,
                "/v1/registrations",
                json: #"{"userId": "dan", "userName": "dan", "identityVerification": "optional"}"#
            )
            #expect(created.status == .created)
            #expect(try created.json().object?["workflowRunId"] == nil)
        }
    }

    @Test("the demo's sign-up goes through the simulated provider before its passkey", arguments: StoreKind.available)
    func demoSignUpVerifies(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: Self.policy) { _, api in
            let web = WebClient(api)
            try await web.get("/")
            let created = try await web.post("/demo/sign-up", json: #"{"userName": "eve"}"#)
            let attempt = try created.expect(.created, RegistrationAttempt.self)
            _ = try await Self.verifyAndRegister(api, created)
            let finish = try await web.post(
                "/demo/sign-up/finish",
                body: ["registrationAttemptId": attempt.registrationAttemptId]
            )
            #expect(finish.status == .ok, "\(finish)")
        }
    }

    @Test("the server refuses to start with the policy and no identity-verification provider")
    func policyNeedsAProvider() throws {
        var configuration = ServerConfiguration()
        configuration.policy.enrollment.requireIdentityVerification = true
        let error = #expect(throws: ConfigurationError.self) { try configuration.validate() }
        #expect(error?.field == Self.setting)
        #expect(error?.message.contains("identityVerification.provider") == true)

        let file =
            #"{"policy": {"enrollment": {"requireIdentityVerification": true}}, "identityVerification": {"provider": "simulated"}}"#
        let loaded = try ServerConfiguration(jsonData: Data(file.utf8))
        try loaded.validate()
        #expect(loaded.policy.enrollment.requireIdentityVerification)
    }
}
