import Foundation
import PasskeyClient
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// The SDK against a live in-process server (``LiveServer``, an in-memory store), as an app would use
/// it: the app's backend (here ``PasskeyBackendAPI``) creates the flows; the client enrolls and signs in.
@Suite("PasskeyClient end to end")
struct EndToEndTests {
    @Test("enroll → sign in → list → delete locally → sign in fails with PASSKEY_NOT_FOUND")
    func lifecycle() async throws {
        try await LiveServer.run { server in
            let authenticator = ScriptableAuthenticator()
            let client = try server.client(authenticator)
            #expect(try await client.shouldPromptToCreatePasskey(userId: "alice"))

            let attempt = try await server.backend.createRegistration(
                userId: "alice",
                userName: "alice@example.com",
                displayName: "Alice"
            )
            let enrolled = try await client.enroll(
                EnrollmentInput(
                    registrationAttemptId: attempt.registrationAttemptId,
                    clientToken: attempt.clientToken,
                    userId: "alice",
                    credentialName: "Test device"
                )
            )
            #expect(enrolled.status == .enrolled)
            #expect(enrolled.registered?.name == "Test device")
            #expect(enrolled.registered?.userId == "alice")
            #expect(enrolled.credential?.userId == "alice")
            #expect(try await !client.shouldPromptToCreatePasskey(userId: "alice"))
            #expect(try await client.shouldPromptToCreatePasskey(userId: "bob"))

            let session = try await server.backend.createAuthentication(userId: "alice")
            let result = try await client.authenticate(
                AuthenticationInput(sessionId: session.biometricPasskeySessionId, clientToken: session.clientToken)
            )
            #expect(result.credentialId == enrolled.credentialId)
            let redeemed = try await server.backend.redeemAuthentication(
                sessionId: session.biometricPasskeySessionId,
                resultToken: result.resultToken
            )
            #expect(redeemed.userId == "alice")
            #expect(redeemed.credentialId == enrolled.credentialId)
            #expect(redeemed.userVerified)

            let listed = try await client.listCredentials()
            #expect(listed.map(\.credentialId) == [enrolled.credentialId])
            #expect(listed.first?.rpDomain == "localhost")
            #expect(listed.first?.lastUsedAt != nil)
            #expect(try await client.getCredential(id: enrolled.credentialId).createdAt <= Date())

            try await client.deleteCredential(id: enrolled.credentialId)
            #expect(try await client.listCredentials().isEmpty)
            #expect(
                await passkeyError { _ = try await client.getCredential(id: enrolled.credentialId) }?.code
                    == .passkeyNotFound
            )

            let again = try await server.backend.createAuthentication(userId: "alice")
            let error = await passkeyError {
                _ = try await client.authenticate(
                    AuthenticationInput(sessionId: again.biometricPasskeySessionId, clientToken: again.clientToken)
                )
            }
            #expect(error?.code == .passkeyNotFound)
        }
    }

    @Test("usernameless sign-in with a discoverable passkey returns the user handle; the backend learns the user")
    func usernameless() async throws {
        try await LiveServer.run { server in
            let client = try server.client(ScriptableAuthenticator(behaviour: .syncedPlatform))
            let attempt = try await server.backend.createRegistration(userId: "carol", userName: "carol")
            _ = try await client.enroll(
                EnrollmentInput(
                    registrationAttemptId: attempt.registrationAttemptId,
                    clientToken: attempt.clientToken,
                    userId: "carol"
                )
            )

            let session = try await server.backend.createAuthentication(userId: nil)
            let result = try await client.authenticate(
                AuthenticationInput(sessionId: session.biometricPasskeySessionId, clientToken: session.clientToken)
            )
            #expect(result.userHandle != nil)
            let redeemed = try await server.backend.redeemAuthentication(
                sessionId: session.biometricPasskeySessionId,
                resultToken: result.resultToken
            )
            #expect(redeemed.userId == "carol")
            #expect(redeemed.backupEligible && redeemed.backupState)
        }
    }

    @Test(
        "excludeCredentials: enrolling again on the same device fails with PASSKEY_ALREADY_EXISTS, or succeeds when asked to"
    )
    func exclude() async throws {
        try await LiveServer.run { server in
            let authenticator = ScriptableAuthenticator()
            let client = try server.client(authenticator)
            let first = try await server.backend.createRegistration(userId: "dave", userName: "dave")
            let enrolled = try await client.enroll(
                EnrollmentInput(
                    registrationAttemptId: first.registrationAttemptId,
                    clientToken: first.clientToken,
                    userId: "dave"
                )
            )

            let second = try await server.backend.createRegistration(userId: "dave", userName: "dave")
            let error = await passkeyError {
                _ = try await client.enroll(
                    EnrollmentInput(
                        registrationAttemptId: second.registrationAttemptId,
                        clientToken: second.clientToken,
                        userId: "dave"
                    )
                )
            }
            #expect(error?.code == .passkeyAlreadyExists)
            let excluded = await authenticator.creationRequests.last?.options.excludeCredentials?.map(\.id.base64URL)
            #expect(excluded == [enrolled.credentialId])

            let third = try await server.backend.createRegistration(userId: "dave", userName: "dave")
            let accepted = try await client.enroll(
                EnrollmentInput(
                    registrationAttemptId: third.registrationAttemptId,
                    clientToken: third.clientToken,
                    userId: "dave",
                    treatExistingPasskeyAsSuccess: true
                )
            )
            #expect(accepted.status == .alreadyEnrolled)
            #expect(accepted.credentialId == enrolled.credentialId)
            #expect(try await client.listCredentials().count == 1)
        }
    }

    @Test("allowCredentials: the server's list is honoured and narrowed; an empty list is INVALID_INPUT")
    func allow() async throws {
        try await LiveServer.run { server in
            let phone = ScriptableAuthenticator()
            let laptop = ScriptableAuthenticator()
            let phoneClient = try server.client(phone)
            let laptopClient = try server.client(laptop)
            var ids: [String] = []
            for client in [phoneClient, laptopClient] {
                let attempt = try await server.backend.createRegistration(userId: "erin", userName: "erin")
                ids.append(
                    try await client.enroll(
                        EnrollmentInput(
                            registrationAttemptId: attempt.registrationAttemptId,
                            clientToken: attempt.clientToken,
                            userId: "erin"
                        )
                    ).credentialId
                )
            }

            let session = try await server.backend.createAuthentication(userId: "erin")
            let result = try await phoneClient.authenticate(
                AuthenticationInput(sessionId: session.biometricPasskeySessionId, clientToken: session.clientToken)
            )
            #expect(result.credentialId == ids[0])
            let allowed = await phone.assertionRequests.last?.options.allowCredentials?.map(\.id.base64URL)
            #expect(Set(allowed ?? []) == Set(ids))

            // Narrowed to the laptop's passkey: the phone has none of them.
            let narrowed = try await server.backend.createAuthentication(userId: "erin")
            let error = await passkeyError {
                _ = try await phoneClient.authenticate(
                    AuthenticationInput(
                        sessionId: narrowed.biometricPasskeySessionId,
                        clientToken: narrowed.clientToken,
                        allowCredentials: [ids[1]]
                    )
                )
            }
            #expect(error?.code == .passkeyNotFound)
            #expect(await phone.assertionRequests.last?.options.allowCredentials?.map(\.id.base64URL) == [ids[1]])

            let empty = await passkeyError {
                _ = try await phoneClient.authenticate(
                    AuthenticationInput(
                        sessionId: narrowed.biometricPasskeySessionId,
                        clientToken: narrowed.clientToken,
                        allowCredentials: []
                    )
                )
            }
            // An empty allow-list allows nothing: the app's set-up is wrong, not the user's input.
            #expect(empty?.code == .invalidConfiguration)
        }
    }

    @Test("userVerification and hints reach the authenticator: the server's, raised by the input, never dropped")
    func userVerificationAndHints() async throws {
        let discouraged: (inout ServerConfiguration) -> Void = { $0.policy.userVerification = .discouraged }
        try await LiveServer.run(adjusting: discouraged) { server in
            let authenticator = ScriptableAuthenticator()
            let client = try server.client(authenticator)
            let attempt = try await server.backend.createRegistration(userId: "fay", userName: "fay")
            _ = try await client.enroll(
                EnrollmentInput(
                    registrationAttemptId: attempt.registrationAttemptId,
                    clientToken: attempt.clientToken,
                    userId: "fay"
                )
            )
            #expect(
                await authenticator.creationRequests.last?.options.authenticatorSelection?.userVerification
                    == .discouraged
            )

            let session = try await server.backend.createAuthentication(userId: "fay")
            _ = try await client.authenticate(
                AuthenticationInput(
                    sessionId: session.biometricPasskeySessionId,
                    clientToken: session.clientToken,
                    userVerification: .required,
                    hints: [.clientDevice]
                )
            )
            let options = await authenticator.assertionRequests.last?.options
            #expect(options?.userVerification == .required)
            #expect(options?.hints == [.clientDevice])

            let lowered = try await server.backend.createAuthentication(userId: "fay", mode: "stepUp")
            _ = try await client.authenticate(
                AuthenticationInput(
                    sessionId: lowered.biometricPasskeySessionId,
                    clientToken: lowered.clientToken,
                    userVerification: .discouraged
                )
            )
            #expect(await authenticator.assertionRequests.last?.options.userVerification == .required)
        }
    }

    @Test("a scripted cancel surfaces as USER_CANCELLED; the attempt can be retried")
    func scriptedCancel() async throws {
        try await LiveServer.run { server in
            let authenticator = ScriptableAuthenticator()
            let client = try server.client(authenticator)
            let attempt = try await server.backend.createRegistration(userId: "gus", userName: "gus")
            await authenticator.script(.cancel)
            let input = EnrollmentInput(
                registrationAttemptId: attempt.registrationAttemptId,
                clientToken: attempt.clientToken,
                userId: "gus"
            )
            let error = await passkeyError { _ = try await client.enroll(input) }
            #expect(error?.code == .userCancelled)
            let enrolled = try await client.enroll(input)
            #expect(enrolled.status == .enrolled)
        }
    }

    @Test("scripted lockout and missing credential surface as BIOMETRIC_LOCKOUT and PASSKEY_NOT_FOUND")
    func scriptedSignIn() async throws {
        try await LiveServer.run { server in
            let authenticator = ScriptableAuthenticator()
            let client = try server.client(authenticator)
            try await Self.enroll(client, server, userId: "hana")
            await authenticator.script(.lockout, .noCredential)
            let first = try await server.backend.createAuthentication(userId: "hana")
            let lockout = await passkeyError {
                _ = try await client.authenticate(Self.input(first))
            }
            #expect(lockout?.code == .biometricLockout)
            // Once the user unlocked with the passcode, the same sign-in can be tried again.
            #expect(lockout?.isRetryable == true)
            let second = try await server.backend.createAuthentication(userId: "hana")
            let missing = await passkeyError {
                _ = try await client.authenticate(Self.input(second))
            }
            #expect(missing?.code == .passkeyNotFound)
        }
    }

    @Test("a user slower than the ceremony's timeout gives TIMEOUT")
    func scriptedDelay() async throws {
        try await LiveServer.run { server in
            let authenticator = ScriptableAuthenticator()
            // The options' timeout (120 s) is clamped to 2 s here.
            let client = try server.client(authenticator, timeoutRange: .milliseconds(100) ... .seconds(2))
            try await Self.enroll(client, server, userId: "ian")
            await authenticator.script(.delay(.seconds(5)))
            let session = try await server.backend.createAuthentication(userId: "ian")
            let timeout = await passkeyError {
                _ = try await client.authenticate(Self.input(session))
            }
            #expect(timeout?.code == .timeout)
        }
    }

    static func enroll(_ client: PasskeyClient, _ server: LiveServer.Context, userId: String) async throws {
        let attempt = try await server.backend.createRegistration(userId: userId, userName: userId)
        _ = try await client.enroll(
            EnrollmentInput(
                registrationAttemptId: attempt.registrationAttemptId,
                clientToken: attempt.clientToken,
                userId: userId
            )
        )
    }

    static func input(_ session: AuthenticationSession) -> AuthenticationInput {
        AuthenticationInput(sessionId: session.biometricPasskeySessionId, clientToken: session.clientToken)
    }

    @Test("an enrolment the server refuses leaves no key behind, so the next one is offered and can succeed")
    func refusedEnrolmentRemovesItsKey() async throws {
        try await LiveServer.run { server in
            let authenticator = ScriptableAuthenticator()
            // An origin the server does not allow: the options come, the key is made, the server refuses it.
            let misconfigured = PasskeyClient(
                configuration: try PasskeyClientConfiguration(
                    rpDomain: "localhost",
                    serverBaseURL: server.baseURL,
                    storage: "com.example.tests",
                    origin: "https://localhost:9999"
                ),
                authenticator: authenticator
            )
            let refused = await passkeyError { try await Self.enroll(misconfigured, server, userId: "ivy") }
            #expect(refused?.serverCode == "ORIGIN_NOT_ALLOWED")
            #expect(try await misconfigured.listCredentials().isEmpty)
            #expect(try await misconfigured.shouldPromptToCreatePasskey(userId: "ivy"))

            let client = try server.client(authenticator)
            try await Self.enroll(client, server, userId: "ivy")
            #expect(try await client.listCredentials().count == 1)
        }
    }

    @Test("server errors arrive as SDK codes with the server's code and request id")
    func serverErrors() async throws {
        try await LiveServer.run { server in
            let client = try server.client(ScriptableAuthenticator())
            let wrongToken = await passkeyError {
                _ = try await client.enroll(
                    EnrollmentInput(registrationAttemptId: "reg_unknown", clientToken: "pkc_wrong")
                )
            }
            #expect(wrongToken?.code == .invalidOrExpiredSession)
            #expect(wrongToken?.serverCode == "UNAUTHENTICATED")
            #expect(wrongToken?.httpStatus == 401)
            #expect(wrongToken?.requestId?.hasPrefix("req_") == true)

            let attempt = try await server.backend.createRegistration(userId: "hal", userName: "hal")
            let input = EnrollmentInput(
                registrationAttemptId: attempt.registrationAttemptId,
                clientToken: attempt.clientToken,
                userId: "hal"
            )
            _ = try await client.enroll(input)
            let reused = await passkeyError { _ = try await client.enroll(input) }
            #expect(reused?.code == .registrationAttemptConflict)

            let noUser = await passkeyError { _ = try await server.backend.createAuthentication(userId: "nobody") }
            #expect(noUser?.code == .notFound)
        }
    }

    @Test("the server's RP ID must match rpDomain")
    func relyingPartyMismatch() async throws {
        try await LiveServer.run { server in
            let client = PasskeyClient(
                configuration: try PasskeyClientConfiguration(
                    rpDomain: "example.com",
                    serverBaseURL: server.baseURL,
                    storage: "tests"
                ),
                authenticator: ScriptableAuthenticator()
            )
            let attempt = try await server.backend.createRegistration(userId: "ivy", userName: "ivy")
            let error = await passkeyError {
                _ = try await client.enroll(
                    EnrollmentInput(
                        registrationAttemptId: attempt.registrationAttemptId,
                        clientToken: attempt.clientToken
                    )
                )
            }
            #expect(error?.code == .relyingPartyMismatch)
        }
    }
}
