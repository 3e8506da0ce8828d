import PasskeyClient
import PasskeyTesting
import Testing

/// App code depends on `PasskeyClientProtocol`; its tests put in `FakePasskeyClient`.
@Suite("FakePasskeyClient")
struct FakeClientTests {
    /// A piece of app code that decides whether to offer a passkey and signs in.
    struct SignInModel {
        let client: any PasskeyClientProtocol

        func signIn(sessionId: String, clientToken: String) async -> String {
            do {
                let result = try await client.authenticate(
                    AuthenticationInput(sessionId: sessionId, clientToken: clientToken)
                )
                return "token \(result.resultToken ?? "none")"
            } catch {
                return error.code == .userCancelled ? "" : error.code.rawValue
            }
        }
    }

    @Test("records calls, answers from its passkeys, and throws the scripted error once")
    func fake() async throws {
        let fake = FakePasskeyClient()
        #expect(try await fake.shouldPromptToCreatePasskey(userId: "alice"))
        let enrolled = try await fake.enroll(
            EnrollmentInput(registrationAttemptId: "reg_1", clientToken: "t", userId: "alice")
        )
        #expect(try await !fake.shouldPromptToCreatePasskey(userId: "alice"))
        #expect(try await fake.getCredential(id: enrolled.credentialId).userId == "alice")

        let model = SignInModel(client: fake)
        #expect(await model.signIn(sessionId: "auth_1", clientToken: "t") == "token fake-result-token")
        await fake.failNext(with: PasskeyError(.userCancelled, "closed"))
        #expect(await model.signIn(sessionId: "auth_2", clientToken: "t") == "")
        await fake.failNext(with: PasskeyError(.biometricLockout, "locked"))
        #expect(await model.signIn(sessionId: "auth_3", clientToken: "t") == "BIOMETRIC_LOCKOUT")
        #expect(await fake.authentications.map(\.sessionId) == ["auth_1", "auth_2", "auth_3"])

        try await fake.deleteCredential(id: enrolled.credentialId)
        #expect(try await fake.listCredentials().isEmpty)
    }
}
