import Foundation
import PasskeyClient
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// Step-up with a transaction bound into the challenge, and identity verification (the server's simulated
/// provider, decided by ``SimulatedIdentityVerifier``), against a live in-process server.
@Suite("Step-up and identity verification end to end")
struct StepUpEndToEndTests {
    /// A text whose é is decomposed (e + U+0301): the server and the SDK must both digest its NFC form.
    static let payment = "Pay 12,50 € to Rene\u{301}e Dupont"

    /// Passes everything through to the server, but replaces the transaction's text in the answers to
    /// authentication options — as a hostile network or a compromised proxy would — and, with `recomputeDigest`,
    /// the digest too, so that text and digest agree and only the challenge still binds the real transaction.
    struct TamperingTransport: HTTPTransport {
        static let substitute = "Pay 9 000 € to Mallory"
        let recomputeDigest: Bool
        let base: any HTTPTransport = URLSessionTransport()

        func send(_ request: HTTPTransportRequest) async throws(PasskeyError) -> HTTPTransportResponse {
            var response = try await base.send(request)
            let path = request.url.path
            guard path.hasPrefix("/v1/client/authentications/"), path.hasSuffix("/options"),
                var object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                var transaction = object["transaction"] as? [String: Any]
            else { return response }
            transaction["text"] = Self.substitute
            if recomputeDigest { transaction["digest"] = TransactionDetails.digest(of: Self.substitute) }
            object["transaction"] = transaction
            if let body = try? JSONSerialization.data(withJSONObject: object) { response.body = Array(body) }
            return response
        }
    }

    static func stepUp(
        _ session: AuthenticationSession,
        _ confirmations: TransactionConfirmations,
        identityVerification: Bool = false
    ) -> AuthenticationInput {
        AuthenticationInput(
            sessionId: session.biometricPasskeySessionId,
            clientToken: session.clientToken,
            mode: .stepUp(.init(identityVerification: identityVerification, confirmTransaction: confirmations.callback))
        )
    }

    @Test("identity-verified enrollment: refused while pending, enrolled once the simulated provider approves")
    func enrollment() async throws {
        try await LiveServer.run(identityVerificationProvider: "simulated") { server in
            let authenticator = ScriptableAuthenticator()
            let attempt = try await server.backend.createRegistration(
                userId: "ada",
                userName: "ada",
                requireIdentityVerification: true
            )
            let workflowRunId = try #require(attempt.workflowRunId)
            let idvToken = try #require(attempt.idvToken)

            let unverified = try server.client(authenticator)
            let pending = await passkeyError {
                _ = try await unverified.enroll(
                    EnrollmentInput(
                        registrationAttemptId: attempt.registrationAttemptId,
                        clientToken: attempt.clientToken,
                        userId: "ada"
                    )
                )
            }
            #expect(pending?.code == .workflowNotCompleted)
            #expect(pending?.isRetryable == true)
            #expect(await authenticator.creationRequests.isEmpty)

            let client = try server.client(
                authenticator,
                identityVerifier: SimulatedIdentityVerifier(backend: server.backend)
            )
            let enrolled = try await client.enroll(
                EnrollmentInput(
                    registrationAttemptId: attempt.registrationAttemptId,
                    clientToken: attempt.clientToken,
                    userId: "ada",
                    identityVerification: .init(workflowRunId: workflowRunId, idvToken: idvToken)
                )
            )
            #expect(enrolled.status == .enrolled)
            #expect(enrolled.registered?.userId == "ada")
            let run = try await server.backend.identityVerificationRun(workflowRunId: workflowRunId)
            #expect(run.status == "approved")
            #expect(run.purpose == "enrollment")
            #expect(run.userId == "ada")
        }
    }

    @Test("identity-verified enrollment: a declined run is WORKFLOW_DECLINED, a run under review WORKFLOW_UNDER_REVIEW")
    func enrollmentRefused() async throws {
        try await LiveServer.run(identityVerificationProvider: "simulated") { server in
            for (decision, code) in [
                (IdentityVerificationDecision.declined, PasskeyError.Code.workflowDeclined),
                (.review, .workflowUnderReview),
            ] {
                let authenticator = ScriptableAuthenticator()
                let client = try server.client(
                    authenticator,
                    identityVerifier: SimulatedIdentityVerifier(backend: server.backend, decision: decision)
                )
                let attempt = try await server.backend.createRegistration(
                    userId: "bo",
                    userName: "bo",
                    requireIdentityVerification: true
                )
                let error = await passkeyError {
                    _ = try await client.enroll(
                        EnrollmentInput(
                            registrationAttemptId: attempt.registrationAttemptId,
                            clientToken: attempt.clientToken,
                            userId: "bo",
                            identityVerification: .init(
                                workflowRunId: try #require(attempt.workflowRunId),
                                idvToken: try #require(attempt.idvToken)
                            )
                        )
                    )
                }
                #expect(error?.code == code, "\(decision)")
                #expect(await authenticator.creationRequests.isEmpty)
            }
        }
    }

    @Test("step-up with a transaction: the user sees the text, the challenge ends with its digest, redeem returns both")
    func transaction() async throws {
        try await LiveServer.run { server in
            let authenticator = ScriptableAuthenticator()
            let client = try server.client(authenticator)
            try await EndToEndTests.enroll(client, server, userId: "cyd")
            let session = try await server.backend.createAuthentication(
                userId: "cyd",
                mode: "stepUp",
                action: "payment.approve",
                transaction: Self.payment
            )
            let digest = TransactionDetails.digest(of: Self.payment)
            #expect(session.transaction?.digest == digest)

            let confirmations = TransactionConfirmations()
            let result = try await client.authenticate(Self.stepUp(session, confirmations))

            let shown = await confirmations.shown
            #expect(shown.count == 1)
            #expect(
                shown.first?.text.precomposedStringWithCanonicalMapping
                    == Self.payment.precomposedStringWithCanonicalMapping
            )
            #expect(result.transaction == shown.first)
            let challenge = try #require(await authenticator.assertionRequests.last?.options.challenge.bytes)
            #expect(challenge.count == 64)
            #expect(Base64URL.encode(challenge.suffix(32)) == digest)

            let redeemed = try await server.backend.redeemAuthentication(
                sessionId: session.biometricPasskeySessionId,
                resultToken: result.resultToken
            )
            #expect(redeemed.transaction?.text == shown.first?.text)
            #expect(redeemed.transaction?.digest == digest)
            #expect(redeemed.assurance == "passkey+uv")
            #expect(redeemed.mode == "stepUp")
            #expect(redeemed.action == "payment.approve")
            #expect(redeemed.identityVerification == nil)
        }
    }

    @Test("step-up with identity verification required: verified through the session, assurance passkey+uv+idv")
    func identityVerification() async throws {
        try await LiveServer.run(identityVerificationProvider: "simulated") { server in
            let authenticator = ScriptableAuthenticator()
            let client = try server.client(
                authenticator,
                identityVerifier: SimulatedIdentityVerifier(backend: server.backend)
            )
            try await EndToEndTests.enroll(client, server, userId: "dee")
            let session = try await server.backend.createAuthentication(
                userId: "dee",
                mode: "stepUp",
                transaction: "Change the payout account to DE89 3704 0044 0532 0130 00",
                requireIdentityVerification: true
            )
            #expect(session.requiresIdentityVerification)

            let early = await passkeyError {
                _ = try await client.api.authenticationRequest(
                    sessionId: session.biometricPasskeySessionId,
                    clientToken: session.clientToken
                )
            }
            #expect(early?.code.rawValue.hasPrefix("WORKFLOW_") == true, "\(String(describing: early))")

            let confirmations = TransactionConfirmations()
            let result = try await client.authenticate(
                Self.stepUp(session, confirmations, identityVerification: session.requiresIdentityVerification)
            )
            #expect(await confirmations.shown.count == 1)
            let redeemed = try await server.backend.redeemAuthentication(
                sessionId: session.biometricPasskeySessionId,
                resultToken: result.resultToken
            )
            #expect(redeemed.assurance == "passkey+uv+idv")
            #expect(redeemed.identityVerification?.decision == "approved")
            #expect(redeemed.identityVerification?.workflowRunId.isEmpty == false)

            let again = await passkeyError {
                _ = try await client.api.startStepUpIdentityVerification(
                    sessionId: session.biometricPasskeySessionId,
                    clientToken: session.clientToken
                )
            }
            #expect(again?.code == .identityVerificationAlreadyStarted)
        }
    }

    @Test("step-up with identity verification declined: WORKFLOW_DECLINED, nothing signed")
    func identityVerificationDeclined() async throws {
        try await LiveServer.run(identityVerificationProvider: "simulated") { server in
            let authenticator = ScriptableAuthenticator()
            let client = try server.client(
                authenticator,
                identityVerifier: SimulatedIdentityVerifier(backend: server.backend, decision: .declined)
            )
            try await EndToEndTests.enroll(client, server, userId: "eve")
            let session = try await server.backend.createAuthentication(
                userId: "eve",
                mode: "stepUp",
                requireIdentityVerification: true
            )
            let error = await passkeyError {
                _ = try await client.authenticate(
                    Self.stepUp(session, TransactionConfirmations(), identityVerification: true)
                )
            }
            #expect(error?.code == .workflowDeclined)
            #expect(await authenticator.assertionRequests.isEmpty)
        }
    }

    @Test(
        "a transaction text altered on the way is refused with AUTH_CONTEXT_MISMATCH before it is shown or signed",
        arguments: [false, true]
    )
    func alteredText(recomputeDigest: Bool) async throws {
        try await LiveServer.run { server in
            let authenticator = ScriptableAuthenticator()
            try await EndToEndTests.enroll(try server.client(authenticator), server, userId: "fin")
            let client = try server.client(
                authenticator,
                transport: TamperingTransport(recomputeDigest: recomputeDigest)
            )
            let session = try await server.backend.createAuthentication(
                userId: "fin",
                mode: "stepUp",
                transaction: Self.payment
            )
            let confirmations = TransactionConfirmations()
            let error = await passkeyError { _ = try await client.authenticate(Self.stepUp(session, confirmations)) }
            #expect(error?.code == .authContextMismatch)
            #expect(await confirmations.shown.isEmpty)
            #expect(await authenticator.assertionRequests.isEmpty)

            // The session's challenge was issued once: it cannot be fetched again for another try.
            let refetch = await passkeyError {
                _ = try await client.api.authenticationRequest(
                    sessionId: session.biometricPasskeySessionId,
                    clientToken: session.clientToken
                )
            }
            #expect(refetch?.code == .challengeRefreshForbidden)
        }
    }
}
