import Foundation
import PasskeyClient
import PasskeyServer
import PasskeyTesting
import Synchronization
import Testing
import WebAuthn

/// `authenticate` in mode `.crossPlatform` against a live in-process server: the backend hands a session off, this
/// client plays the phone, and the backend redeems with the handoff's poll token.
@Suite("Cross-device approval end to end")
struct CrossPlatformEndToEndTests {
    /// The numbers a scripted user types, in order, and how many times they were asked.
    final class Typist: Sendable {
        private let answers: Mutex<[String?]>
        private let requests = Mutex<[AuthenticationInput.VerificationCodeRequest]>([])

        init(_ answers: [String?]) { self.answers = Mutex(answers) }

        var asked: [AuthenticationInput.VerificationCodeRequest] { requests.withLock { $0 } }

        var callback: @Sendable (AuthenticationInput.VerificationCodeRequest) async -> String? {
            { request in
                self.requests.withLock { $0.append(request) }
                return self.answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            }
        }
    }

    static func wrong(_ code: String) -> String { String(format: "%02d", (Int(code)! + 1) % 100) }

    @Test(
        "the phone claims by deep link, confirms after one wrong number, signs; the backend redeems with the poll token"
    )
    func approval() async throws {
        try await LiveServer.run { server in
            let phone = ScriptableAuthenticator()
            let client = try server.client(phone)
            try await EndToEndTests.enroll(client, server, userId: "ada")
            let session = try await server.backend.createAuthentication(userId: "ada")
            let handoff = try await server.backend.createHandoff(sessionId: session.biometricPasskeySessionId)
            let typist = Typist([Self.wrong(handoff.verificationCode), handoff.verificationCode])

            let result = try await client.authenticate(
                AuthenticationInput(
                    crossPlatform: .init(handoffToken: handoff.deepLink, verificationCode: typist.callback)
                )
            )
            #expect(result.resultToken == nil)
            #expect(result.crossPlatformSessionId == handoff.crossPlatformSessionId)
            #expect(result.sessionId == session.biometricPasskeySessionId)
            #expect(typist.asked.map(\.wrongAttempts) == [0, 1])
            #expect(typist.asked.first?.handoff.mode == "standard")

            let status = try await client.api.handoffStatus(
                crossPlatformSessionId: handoff.crossPlatformSessionId,
                pollToken: handoff.pollToken
            )
            #expect(status.status == "approved")
            let redeemed = try await server.backend.redeemAuthentication(
                sessionId: session.biometricPasskeySessionId,
                resultToken: handoff.pollToken
            )
            #expect(redeemed.userId == "ada")
            let noToken = await passkeyError {
                _ = try await server.backend.redeemAuthentication(
                    sessionId: result.sessionId,
                    resultToken: result.resultToken
                )
            }
            #expect(noToken?.code == .invalidInput)

            let again = await passkeyError {
                _ = try await client.resumeCrossPlatform(handoffToken: handoff.handoffToken)
            }
            #expect(again?.code == .handoffAlreadyClaimed)
            #expect(again?.isRetryable == false)
        }
    }

    @Test(
        "a software authenticator names its passkeys with the options: a phone holding only another user's is refused by the server before it signs"
    )
    func heldPasskeysRefusedBeforeSigning() async throws {
        try await LiveServer.run { server in
            let phone = SoftwareAuthenticator(keyStore: MemoryKeyStore())
            let client = try server.client(phone)
            try await EndToEndTests.enroll(client, server, userId: "bob")
            try await EndToEndTests.enroll(try server.client(ScriptableAuthenticator()), server, userId: "ada")
            let session = try await server.backend.createAuthentication(userId: "ada")
            let handoff = try await server.backend.createHandoff(sessionId: session.biometricPasskeySessionId)

            let failure = await passkeyError {
                _ = try await client.authenticate(
                    AuthenticationInput(
                        crossPlatform: .init(
                            handoffToken: handoff.deepLink,
                            verificationCode: { _ in
                                handoff.verificationCode
                            }
                        )
                    )
                )
            }
            #expect(failure?.code == .passkeyNotFound)
            #expect(failure?.serverCode == "CREDENTIAL_NOT_FOUND", "the server refused, not the authenticator")
            #expect(try await phone.credentials(rpDomain: nil).map(\.lastUsedAt) == [nil], "bob's passkey never signed")
        }
    }

    @Test("a step-up's transaction is shown before signing, and identity verification runs on the phone")
    func stepUp() async throws {
        try await LiveServer.run(identityVerificationProvider: "simulated") { server in
            let phone = ScriptableAuthenticator()
            let client = try server.client(phone, identityVerifier: SimulatedIdentityVerifier(backend: server.backend))
            try await EndToEndTests.enroll(client, server, userId: "bea")
            let session = try await server.backend.createAuthentication(
                userId: "bea",
                mode: "stepUp",
                transaction: "Pay 40 € to Carl",
                requireIdentityVerification: true
            )
            let handoff = try await server.backend.createHandoff(sessionId: session.biometricPasskeySessionId)
            let confirmations = TransactionConfirmations()
            let result = try await client.authenticate(
                AuthenticationInput(
                    crossPlatform: .init(
                        handoffToken: handoff.handoffToken,
                        verificationCode: Typist([handoff.verificationCode]).callback,
                        confirmTransaction: confirmations.callback
                    )
                )
            )
            #expect(result.transaction?.text == "Pay 40 € to Carl")
            #expect(await confirmations.shown.map(\.text) == ["Pay 40 € to Carl"])
            let redeemed = try await server.backend.redeemAuthentication(
                sessionId: session.biometricPasskeySessionId,
                resultToken: handoff.pollToken
            )
            #expect(redeemed.assurance == "passkey+uv+idv")
        }
    }

    @Test("the user says it was not them: USER_CANCELLED, nothing signed, the first device reads rejected")
    func notMe() async throws {
        try await LiveServer.run { server in
            let phone = ScriptableAuthenticator()
            let client = try server.client(phone)
            try await EndToEndTests.enroll(client, server, userId: "cy")
            let session = try await server.backend.createAuthentication(userId: "cy")
            let handoff = try await server.backend.createHandoff(sessionId: session.biometricPasskeySessionId)
            let signedBefore = await phone.assertionRequests.count
            let error = await passkeyError {
                _ = try await client.authenticate(
                    AuthenticationInput(
                        crossPlatform: .init(
                            handoffToken: handoff.handoffToken,
                            verificationCode: Typist([nil]).callback
                        )
                    )
                )
            }
            #expect(error?.code == .userCancelled)
            #expect(await phone.assertionRequests.count == signedBefore)
            let status = try await client.api.handoffStatus(
                crossPlatformSessionId: handoff.crossPlatformSessionId,
                pollToken: handoff.pollToken
            )
            #expect(status.status == "rejected")
        }
    }

    @Test("three wrong numbers: HANDOFF_CODE_MISMATCH, and the handoff is rejected")
    func wrongNumbers() async throws {
        try await LiveServer.run { server in
            let client = try server.client(ScriptableAuthenticator())
            try await EndToEndTests.enroll(client, server, userId: "dot")
            let session = try await server.backend.createAuthentication(userId: "dot")
            let handoff = try await server.backend.createHandoff(sessionId: session.biometricPasskeySessionId)
            let wrong = Self.wrong(handoff.verificationCode)
            let typist = Typist([wrong, wrong, wrong, handoff.verificationCode])
            let error = await passkeyError {
                _ = try await client.authenticate(
                    AuthenticationInput(
                        crossPlatform: .init(handoffToken: handoff.handoffToken, verificationCode: typist.callback)
                    )
                )
            }
            #expect(error?.code == .handoffCodeMismatch)
            #expect(typist.asked.count == 3)
            let status = try await client.api.handoffStatus(
                crossPlatformSessionId: handoff.crossPlatformSessionId,
                pollToken: handoff.pollToken
            )
            #expect(status.status == "rejected")
        }
    }

    @Test(
        "a token that is not one is refused before any request",
        arguments: ["", "https://example.com/approve#", "a b"]
    )
    func badTokens(token: String) async throws {
        try await LiveServer.run { server in
            let client = try server.client(ScriptableAuthenticator())
            let error = await passkeyError { _ = try await client.resumeCrossPlatform(handoffToken: token) }
            #expect(error?.code == .invalidInput)
        }
    }
}

extension CrossPlatformEndToEndTests {
    @Test("the guide's example approves a handed-off step-up: the number asked once, the text shown once")
    func guideExample() async throws {
        try await LiveServer.run { server in
            let client = try server.client(ScriptableAuthenticator())
            try await EndToEndTests.enroll(client, server, userId: "eli")
            let session = try await server.backend.createAuthentication(
                userId: "eli",
                mode: "stepUp",
                transaction: "Send 5 € to Fay"
            )
            let handoff = try await server.backend.createHandoff(sessionId: session.biometricPasskeySessionId)
            let asked = Mutex<[Int]>([])
            let shown = Mutex<[String]>([])
            let approved = try await approveOnPhone(
                client: client,
                link: handoff.deepLink,
                askForNumber: { wrongSoFar in
                    asked.withLock { $0.append(wrongSoFar) }
                    return handoff.verificationCode
                },
                ask: { text in
                    shown.withLock { $0.append(text) }
                    return true
                }
            )
            #expect(approved == handoff.crossPlatformSessionId)
            #expect(asked.withLock { $0 } == [0])
            #expect(shown.withLock { $0 } == ["Send 5 € to Fay"])
        }
    }
}
