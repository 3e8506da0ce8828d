import Foundation
import PasskeyClient
import Testing
import WebAuthn

/// The ceremony's timeout ends the system's sheet, as the Apple platform adapter runs it: a `SystemPrompt` whose
/// system answers only when it is cancelled (as `ASAuthorizationController.cancel()` makes it answer).
@Suite("A ceremony's timeout ends the sheet", .timeLimit(.minutes(5)))
struct CeremonyTimeoutTests {
    /// How the scripted system answers the cancellation of its sheet.
    enum AnswerToCancel: Sendable {
        case canceled
        case credential
    }

    /// An authenticator whose sheet stays open until it is cancelled.
    struct SheetAuthenticator: Authenticator {
        let answer: AnswerToCancel
        /// Told when the sheet is shown.
        var shown: AsyncStream<Void>.Continuation?

        func isSupported() async -> Bool { true }

        func makeCredential(
            _ request: CredentialCreationRequest
        ) async throws(PasskeyError) -> RegistrationResponseJSON {
            do {
                return try await Self.showSheet(answer, shown: shown).registrationResponse()
            } catch {
                throw AppleErrorMapping.passkeyError(for: error)
            }
        }

        func getAssertion(
            _ request: CredentialAssertionRequest
        ) async throws(PasskeyError) -> AuthenticationResponseJSON {
            throw PasskeyError(.featureNotAvailable, "registration only")
        }

        func credentials(rpDomain: String?) async throws(PasskeyError) -> [Credential] { [] }
        func deleteCredential(id: String) async throws(PasskeyError) {}

        @MainActor
        static func showSheet(
            _ answer: AnswerToCancel,
            shown: AsyncStream<Void>.Continuation?
        ) async throws -> PlatformCredential {
            let prompt = SystemPrompt<PlatformCredential>()
            return try await prompt.run(
                start: { shown?.yield() },
                cancel: {
                    switch answer {
                    case .canceled:
                        prompt.answer(.failure(NSError(domain: AppleErrorMapping.authorizationErrorDomain, code: 1001)))
                    case .credential:
                        prompt.answer(
                            .success(
                                PlatformCredential(
                                    id: [7],
                                    clientDataJSON: [1],
                                    attestationObject: [2],
                                    source: .platformProvider(attachment: .platform)
                                )
                            )
                        )
                    }
                }
            )
        }
    }

    /// The options' timeout (60 s in the fixtures) is clamped to at most `deadline`.
    static func client(
        _ answer: AnswerToCancel,
        deadline: Duration = .milliseconds(200),
        shown: AsyncStream<Void>.Continuation? = nil
    ) -> WebAuthnClient {
        WebAuthnClient(
            authenticator: SheetAuthenticator(answer: answer, shown: shown),
            origin: Fixtures.origin,
            timeoutRange: .milliseconds(100)...deadline
        )
    }

    @Test("at the deadline the sheet is cancelled and the ceremony fails with TIMEOUT")
    func timeout() async {
        do {
            _ = try await Self.client(.canceled).create(Fixtures.creationOptions())
            Issue.record("The ceremony should have timed out.")
        } catch {
            #expect(error.code == .timeout)
        }
    }

    @Test("a passkey made as the sheet closed is returned, not thrown away")
    func lateCredential() async throws {
        let response = try await Self.client(.credential).create(Fixtures.creationOptions())
        #expect(response.rawId.bytes == [7])
    }

    @Test("cancelling the caller's task ends the sheet with CANCELLED")
    func callerCancels() async {
        let (shown, sheetShown) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await Self.client(.canceled, deadline: .seconds(60), shown: sheetShown).create(
                Fixtures.creationOptions()
            )
        }
        // Cancelled once the sheet is up, so the cancellation reaches the sheet, not a ceremony yet to start.
        for await _ in shown { break }
        task.cancel()
        switch await task.result {
        case .success: Issue.record("The ceremony should have been cancelled.")
        case .failure(let error): #expect((error as? PasskeyError)?.code == .cancelled)
        }
    }
}
