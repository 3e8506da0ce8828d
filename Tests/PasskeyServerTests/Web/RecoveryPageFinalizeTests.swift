import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// What `/recover/finalize` may finalize, and what it and the recovery's `complete` tell a caller without the right
/// token. Over real HTTP, on SQLite and PostgreSQL.
@Suite("Recovery page finalize")
struct RecoveryPageFinalizeTests {
    @Test(
        "the page cannot finalize a recovery the backend started; the backend still can",
        arguments: StoreKind.available
    )
    func backendStartedAttemptIsTheBackends(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: Recovery.simulated) { _, api in
            var lostPhone = TestAuthenticator()
            try await api.enroll("ada", authenticator: &lostPhone)
            let (start, registration) = try await api.verifiedRecovery(userID: "ada")
            var newPhone = TestAuthenticator()
            _ = try await api.completeRecovery(
                start.recoveryAttemptId,
                api.registrationResponse(registration.publicKey, authenticator: &newPhone),
                continuationToken: registration.continuationToken
            ).expect(.created, CredentialView.self)

            let device = WebClient(api)
            _ = try await device.get("/recover")
            let refused = try await device.post(
                "/recover/finalize",
                body: [
                    "recoveryAttemptId": start.recoveryAttemptId, "continuationToken": registration.continuationToken,
                ]
            )
            expectError(refused, "RECOVERY_FINALIZE_BY_BACKEND", .forbidden)
            let status = try await api.backend(.get, Recovery.attempt(start.recoveryAttemptId))
                .expect(.ok, RecoveryStatusView.self)
            #expect(status.status == "registered")
            _ = try await api.backend(.post, Recovery.attempt(start.recoveryAttemptId) + "/finalize")
                .expect(.ok, RecoveryFinalizeView.self)
        }
    }

    @Test("/recover/finalize answers an unknown attempt exactly as a known one with a wrong token")
    func finalizeHasNoExistenceOracle() async throws {
        let server = try TestServer(configure: Recovery.simulated)
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("ada", authenticator: &phone)
            let (start, _) = try await api.verifiedRecovery(userID: "ada")
            let device = WebClient(api)
            _ = try await device.get("/recover")
            let known = try await device.post(
                "/recover/finalize",
                body: ["recoveryAttemptId": start.recoveryAttemptId, "continuationToken": "pkc_wrong"]
            )
            let unknown = try await device.post(
                "/recover/finalize",
                body: ["recoveryAttemptId": "rec_doesnotexist", "continuationToken": "pkc_wrong"]
            )
            expectError(known, "RECOVERY_TOKEN_INVALID", .unauthorized)
            expectError(unknown, "RECOVERY_TOKEN_INVALID", .unauthorized)
            let knownError = try known.json().object?["error"]?.object
            let unknownError = try unknown.json().object?["error"]?.object
            #expect(knownError?["message"]?.string == unknownError?["message"]?.string)
        }
    }

    @Test("complete checks the continuation token before it says anything about the attempt's state")
    func completeHasNoStateOracle() async throws {
        let server = try TestServer(configure: Recovery.simulated)
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("ada", authenticator: &phone)
            let pending = try await api.startRecovery(userID: "ada").expect(.created, RecoveryStart.self)
            let cancelled = try await api.startRecovery(userID: "ada").expect(.created, RecoveryStart.self)
            _ = try await api.backend(.post, Recovery.attempt(cancelled.recoveryAttemptId) + "/cancel")
            let (exchanged, registration) = try await api.verifiedRecovery(userID: "ada")
            var guesser = TestAuthenticator()
            let response = try api.registrationResponse(registration.publicKey, authenticator: &guesser)
            var answers: [APIResponse] = []
            for id in [pending.recoveryAttemptId, cancelled.recoveryAttemptId, exchanged.recoveryAttemptId, "rec_none"]
            {
                answers.append(try await api.completeRecovery(id, response, continuationToken: "pkc_guess"))
            }
            for answer in answers { expectError(answer, "RECOVERY_TOKEN_INVALID", .unauthorized) }
            let messages = try answers.map { try $0.json().object?["error"]?.object?["message"]?.string ?? "" }
            #expect(Set(messages).count == 1, "\(messages)")
        }
    }
}
