import Foundation
import PasskeyClient
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// `recover` against a live in-process server with the software authenticator and the simulated identity
/// verification, and the mapping of the recovery codes.
@Suite("Recovery on a new device")
struct RecoveryTests {
    /// Enrolls `userId` with a software authenticator of its own (the lost phone) and returns its credential id.
    static func enrollLostPhone(_ server: LiveServer.Context, userId: String) async throws -> String {
        let lostPhone = try server.client(SoftwareAuthenticator(keyStore: MemoryKeyStore()))
        let attempt = try await server.backend.createRegistration(userId: userId, userName: userId)
        let enrolled = try await lostPhone.enroll(
            EnrollmentInput(
                registrationAttemptId: attempt.registrationAttemptId,
                clientToken: attempt.clientToken,
                userId: userId
            )
        )
        return enrolled.credentialId
    }

    static func newPhone(
        _ server: LiveServer.Context,
        faceMatch: IdentityVerificationFaceMatch? = .pass
    ) throws -> PasskeyClient {
        try server.client(
            SoftwareAuthenticator(keyStore: MemoryKeyStore()),
            identityVerifier: SimulatedIdentityVerifier(backend: server.backend, faceMatch: faceMatch)
        )
    }

    @Test("recover, finalize, sign in with the new passkey; the lost one is revoked")
    func wholeRecovery() async throws {
        try await LiveServer.run(identityVerificationProvider: "simulated") { server in
            let lost = try await Self.enrollLostPhone(server, userId: "ada")
            let attempt = try await server.backend.createRecovery(userId: "ada")
            let phone = try Self.newPhone(server)
            let output = try await phone.recover(
                RecoveryInput(recoveryAttemptId: attempt.recoveryAttemptId, recoveryToken: attempt.recoveryToken),
                registrationProvider: ServerRecoveryRegistrationProvider(api: phone.api)
            )
            #expect(output.registered?.credentialId == output.credentialId)
            #expect(output.registered?.status == "reserved")
            #expect(try Base64URL.decode(output.attestationObject).isEmpty == false)
            let clientData = try JSONSerialization.jsonObject(with: Data(Base64URL.decode(output.clientDataJson)))
            #expect((clientData as? [String: Any])?["type"] as? String == "webauthn.create")
            #expect(try await phone.listCredentials().map(\.credentialId) == [output.credentialId])

            let finalized = try await server.backend.finalizeRecovery(recoveryAttemptId: attempt.recoveryAttemptId)
            #expect(finalized.credential.status == "active")
            #expect(finalized.revokedCredentialIds == [lost])
            let session = try await server.backend.createAuthentication(userId: "ada")
            let signedIn = try await phone.authenticate(
                AuthenticationInput(sessionId: session.biometricPasskeySessionId, clientToken: session.clientToken)
            )
            #expect(signedIn.credentialId == output.credentialId)
        }
    }

    @Test("the example of docs/sdk.md recovers an account")
    func documentedExample() async throws {
        try await LiveServer.run(identityVerificationProvider: "simulated") { server in
            let lost = try await Self.enrollLostPhone(server, userId: "dee")
            let revoked = try await recoverAccount(
                client: Self.newPhone(server),
                backend: server.backend,
                userId: "dee"
            )
            #expect(revoked == [lost])
        }
    }

    /// An identity verifier that counts the prompts before handing them to the simulated one.
    actor CountingVerifier: IdentityVerifier {
        let inner: SimulatedIdentityVerifier
        private(set) var prompts = 0
        init(_ inner: SimulatedIdentityVerifier) { self.inner = inner }

        func verify(_ request: IdentityVerificationRequest) async throws(PasskeyError) {
            prompts += 1
            try await inner.verify(request)
        }
    }

    @Test("an attempt past its attemptExpiresAt fails at once with RECOVERY_ATTEMPT_EXPIRED: no prompt, no request")
    func expiredAttemptFailsFast() async throws {
        try await LiveServer.run(identityVerificationProvider: "simulated") { server in
            _ = try await Self.enrollLostPhone(server, userId: "eve")
            let attempt = try await server.backend.createRecovery(userId: "eve")
            let transport = RecordingTransport()
            let verifier = CountingVerifier(SimulatedIdentityVerifier(backend: server.backend, faceMatch: .pass))
            let phone = try server.client(
                SoftwareAuthenticator(keyStore: MemoryKeyStore()),
                transport: transport,
                identityVerifier: verifier
            )
            let provider = ServerRecoveryRegistrationProvider(api: phone.api)
            let expired = await passkeyError {
                _ = try await phone.recover(
                    RecoveryInput(
                        recoveryAttemptId: attempt.recoveryAttemptId,
                        recoveryToken: attempt.recoveryToken,
                        attemptExpiresAt: Date().addingTimeInterval(-1)
                    ),
                    registrationProvider: provider
                )
            }
            #expect(expired?.code == .recoveryAttemptExpired)
            #expect(expired?.isRetryable == false)
            #expect(await verifier.prompts == 0)
            #expect(await transport.requestCount == 0)
            #expect(try await phone.listCredentials().isEmpty)

            // Nothing was spent: with the attempt's real expiry the same token recovers.
            let output = try await phone.recover(
                RecoveryInput(
                    recoveryAttemptId: attempt.recoveryAttemptId,
                    recoveryToken: attempt.recoveryToken,
                    attemptExpiresAt: attempt.attemptExpiresAt
                ),
                registrationProvider: provider
            )
            #expect(output.registered?.status == "reserved")
            #expect(await verifier.prompts == 1)
        }
    }

    @Test("a face that does not match: RECOVERY_MATCH_FAILED, not retryable, and no passkey is created")
    func matchFailed() async throws {
        try await LiveServer.run(identityVerificationProvider: "simulated") { server in
            _ = try await Self.enrollLostPhone(server, userId: "bo")
            let attempt = try await server.backend.createRecovery(userId: "bo")
            let phone = try Self.newPhone(server, faceMatch: .fail)
            let error = await passkeyError {
                _ = try await phone.recover(
                    RecoveryInput(recoveryAttemptId: attempt.recoveryAttemptId, recoveryToken: attempt.recoveryToken),
                    registrationProvider: ServerRecoveryRegistrationProvider(api: phone.api)
                )
            }
            #expect(error?.code == .recoveryMatchFailed)
            #expect(error?.isRetryable == false)
            #expect(try await phone.listCredentials().isEmpty)
        }
    }

    @Test("a wrong token: RECOVERY_TOKEN_INVALID, not retryable; a used one too")
    func tokenInvalid() async throws {
        try await LiveServer.run(identityVerificationProvider: "simulated") { server in
            _ = try await Self.enrollLostPhone(server, userId: "cy")
            let attempt = try await server.backend.createRecovery(userId: "cy")
            let phone = try Self.newPhone(server)
            let provider = ServerRecoveryRegistrationProvider(api: phone.api)
            let wrong = await passkeyError {
                _ = try await phone.recover(
                    RecoveryInput(recoveryAttemptId: attempt.recoveryAttemptId, recoveryToken: "pkrt_wrong"),
                    registrationProvider: provider
                )
            }
            #expect(wrong?.code == .recoveryTokenInvalid)
            #expect(wrong?.isRetryable == false)
            let input = RecoveryInput(
                recoveryAttemptId: attempt.recoveryAttemptId,
                recoveryToken: attempt.recoveryToken
            )
            _ = try await phone.recover(input, registrationProvider: provider)
            let again = await passkeyError { _ = try await phone.recover(input, registrationProvider: provider) }
            #expect(again?.code == .recoveryTokenInvalid)
        }
    }

    @Test("without an identity verifier: INVALID_CONFIGURATION before anything is sent")
    func needsAVerifier() async throws {
        try await LiveServer.run(identityVerificationProvider: "simulated") { server in
            let phone = try server.client(SoftwareAuthenticator(keyStore: MemoryKeyStore()))
            let error = await passkeyError {
                _ = try await phone.recover(
                    RecoveryInput(recoveryAttemptId: "rec_x", recoveryToken: "pkrt_x"),
                    registrationProvider: ServerRecoveryRegistrationProvider(api: phone.api)
                )
            }
            #expect(error?.code == .invalidConfiguration)
        }
    }

    static let now = TestTime.fixed

    static func data(
        challenge: [UInt8] = Array(0..<32),
        userHandle: [UInt8] = Array(repeating: 7, count: 32),
        registrationExpiresAt: Date = now + 60,
        attemptExpiresAt: Date = now + 600,
        publicKey: PublicKeyCredentialCreationOptionsJSON? = nil
    ) -> RecoveryRegistrationData {
        RecoveryRegistrationData(
            challenge: Base64URL.encode(challenge),
            userHandle: Base64URL.encode(userHandle),
            rpId: "example.com",
            registrationExpiresAt: registrationExpiresAt,
            attemptExpiresAt: attemptExpiresAt,
            publicKey: publicKey
        )
    }

    @Test("registration data from an app's provider: checked, then made into creation options")
    func registrationDataChecked() throws {
        let options = try Self.data().creationOptions(at: Self.now)
        #expect(options.challenge.bytes == Array(0..<32))
        #expect(options.user.id.bytes == Array(repeating: 7, count: 32))
        #expect(options.rp.id == "example.com")
        #expect(options.user.name == Base64URL.encode(Array(repeating: 7, count: 32)))

        let failures: [(RecoveryRegistrationData, PasskeyError.Code)] = [
            (Self.data(userHandle: []), .invalidInput),
            (Self.data(challenge: Array(0..<8)), .invalidInput),
            (Self.data(registrationExpiresAt: Self.now), .recoveryPasskeyRegistrationExpired),
            (Self.data(attemptExpiresAt: Self.now - 1), .recoveryAttemptExpired),
            (
                Self.data(challenge: Array(100..<132), publicKey: Fixtures.creationOptions()),
                .recoveryRegistrationMismatch
            ),
        ]
        for (data, code) in failures {
            #expect(throws: PasskeyError(code, "")) { try data.creationOptions(at: Self.now) }
        }
        // Fixtures.creationOptions has the same challenge and user handle.
        let matching = Fixtures.creationOptions()
        #expect(try Self.data(publicKey: matching).creationOptions(at: Self.now) == matching)
    }

    @Test(
        "every recovery code is kept, and token, attempt and expiry errors are never retryable",
        arguments: [
            ("RECOVERY_NOT_SUPPORTED", false), ("RECOVERY_RATE_LIMITED", true), ("RECOVERY_TOKEN_INVALID", false),
            ("RECOVERY_IDV_NOT_COMPLETED", true), ("RECOVERY_MATCH_FAILED", false),
            ("RECOVERY_EBT_UNAVAILABLE", false), ("RECOVERY_ATTEMPT_EXPIRED", false),
            ("RECOVERY_ATTEMPT_CANCELLED", false), ("RECOVERY_ATTEMPT_CONFLICT", false),
            ("RECOVERY_PASSKEY_REGISTRATION_EXPIRED", false), ("RECOVERY_REGISTRATION_FAILED", false),
            ("RECOVERY_REGISTRATION_MISMATCH", false),
        ]
    )
    func codes(serverCode: String, retryable: Bool) async throws {
        #expect(PasskeyError.Code(serverCode: serverCode).rawValue == serverCode)
        #expect(PasskeyError.Code.isKnownServerCode(serverCode))
        // A server that says "retryable" is believed only where retrying can help.
        let server = ScriptedServer()
        await server.on(
            "POST",
            "/v1/client/recoveries/rec_x/registration",
            ScriptedServer.error(409, serverCode, retryable: true)
        )
        let api = PasskeyClientAPI(serverBaseURL: ScriptedServer.baseURL, transport: server)
        let error = await passkeyError {
            _ = try await api.recoveryRegistration(recoveryAttemptId: "rec_x", recoveryToken: "pkrt_x")
        }
        #expect(error?.code.rawValue == serverCode)
        #expect(error?.serverCode == serverCode)
        #expect(error?.isRetryable == retryable)
    }
}
