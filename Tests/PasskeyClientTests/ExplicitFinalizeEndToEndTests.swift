import Foundation
import PasskeyClient
import PasskeyTesting
import Testing

/// An explicit-finalize enrolment as an integrator runs it: the app enrolls and hands the finalize token to its
/// backend, which finalizes, aborts or cancels through ``PasskeyBackendAPI`` — against a live server.
@Suite("PasskeyClient: explicit finalize, abort and cancel end to end")
struct ExplicitFinalizeEndToEndTests {
    static func enrollReserved(
        _ server: LiveServer.Context,
        _ client: PasskeyClient,
        userId: String
    ) async throws -> (attempt: RegistrationAttempt, registered: RegisteredCredential) {
        let attempt = try await server.backend.createRegistration(
            userId: userId,
            userName: "\(userId)@example.com",
            explicitFinalize: true
        )
        let enrolled = try await client.enroll(
            EnrollmentInput(
                registrationAttemptId: attempt.registrationAttemptId,
                clientToken: attempt.clientToken,
                userId: userId
            )
        )
        let registered = try #require(enrolled.registered)
        #expect(registered.status == "reserved")
        return (attempt, registered)
    }

    @Test("the app's finalize token lets the backend finalize; another token is refused")
    func finalize() async throws {
        try await LiveServer.run { server in
            let client = try server.client(ScriptableAuthenticator())
            let (attempt, registered) = try await Self.enrollReserved(server, client, userId: "alice")
            let token = try #require(registered.finalizeToken)
            #expect(token.hasPrefix("pkf_"))

            let refused = await passkeyError {
                _ = try await server.backend.finalizeRegistration(
                    registrationAttemptId: attempt.registrationAttemptId,
                    finalizeToken: "pkf_not-this-one"
                )
            }
            #expect(refused?.serverCode == "FINALIZE_TOKEN_INVALID")

            let finalized = try await server.backend.finalizeRegistration(
                registrationAttemptId: attempt.registrationAttemptId,
                finalizeToken: token
            )
            #expect(finalized.status == "finalized")
            #expect(finalized.credential?.status == "active")
            #expect(finalized.credential?.credentialId == registered.credentialId)
            #expect(finalized.credential?.finalizeToken == nil)
        }
    }

    @Test("an abort because the identity provider refused is reported with IDP_COMMIT_FAILED")
    func abort() async throws {
        try await LiveServer.run { server in
            let client = try server.client(ScriptableAuthenticator())
            let (attempt, registered) = try await Self.enrollReserved(server, client, userId: "bob")
            let aborted = try await server.backend.abortRegistration(
                registrationAttemptId: attempt.registrationAttemptId,
                finalizeToken: try #require(registered.finalizeToken),
                identityProviderRefused: true
            )
            #expect(aborted.status == "aborted")
            #expect(aborted.reason == "IDP_COMMIT_FAILED")
            let again = await passkeyError {
                _ = try await server.backend.finalizeRegistration(
                    registrationAttemptId: attempt.registrationAttemptId,
                    finalizeToken: try #require(registered.finalizeToken)
                )
            }
            #expect(again?.code == .idpCommitFailed)
        }
    }

    @Test("an attempt the backend cancelled fails the app's enrolment with REGISTRATION_ATTEMPT_CANCELLED")
    func cancel() async throws {
        try await LiveServer.run { server in
            let client = try server.client(ScriptableAuthenticator())
            let attempt = try await server.backend.createRegistration(userId: "carol", userName: "carol@example.com")
            let cancelled = try await server.backend.cancelRegistration(
                registrationAttemptId: attempt.registrationAttemptId
            )
            #expect(cancelled.status == "cancelled")
            let refused = await passkeyError {
                _ = try await client.enroll(
                    EnrollmentInput(
                        registrationAttemptId: attempt.registrationAttemptId,
                        clientToken: attempt.clientToken,
                        userId: "carol"
                    )
                )
            }
            #expect(refused?.code == .registrationAttemptCancelled)
            #expect(try await client.listCredentials().isEmpty)
        }
    }
}
