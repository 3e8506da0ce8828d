import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

/// DESIGN §3 flow 5 over real HTTP, on SQLite and PostgreSQL: the person proves who they are on a new device, a
/// replacement passkey is registered, and finalizing revokes the lost ones.
@Suite("Recovery")
struct RecoveryFlowTests {
    @Test(
        "the whole recovery: verify, exchange, register, finalize; the old passkey, sessions and results are over",
        arguments: StoreKind.available
    )
    func wholeRecovery(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: Recovery.simulated) { _, api in
            var lostPhone = TestAuthenticator()
            let lost = try await api.enroll("ada", authenticator: &lostPhone)
            // A sign-in completed with the lost phone whose result the backend has not redeemed yet.
            let (pending, pendingOptions) = try await api.signInSession(userID: "ada")
            let pendingResult = try await api.completeSignIn(
                pending,
                api.assertion(pendingOptions, authenticator: &lostPhone)
            ).expect(.ok, SignInCompletion.self)

            let created = try await api.startRecovery(userID: "ada")
            let start = try created.expect(.created, RecoveryStart.self)
            #expect(start.recoveryAttemptId.hasPrefix("rec_"))
            #expect(start.recoveryToken.count >= 40)
            let status = try await api.backend(.get, Recovery.attempt(start.recoveryAttemptId))
            #expect(try status.expect(.ok, RecoveryStatusView.self).status == "pending")

            let run = try await api.startRecoveryIdentityVerification(start)
            #expect(try await api.decide(run: run, "approved", faceMatch: "pass").status == .ok)
            let registration = try await api.recoveryRegistration(
                start.recoveryAttemptId,
                token: start.recoveryToken
            ).expect(.ok, RecoveryRegistrationView.self)
            #expect(registration.challenge == Base64URL.encode(registration.publicKey.challenge.bytes))
            #expect(registration.userHandle == Base64URL.encode(registration.publicKey.user.id.bytes))
            #expect(registration.userHandle == Base64URL.encode(lostPhone.userHandle))
            #expect(registration.rpId == "localhost" && registration.publicKey.rp.id == "localhost")
            #expect(registration.userId == "ada")
            #expect(registration.registrationExpiresAt <= registration.attemptExpiresAt)
            let exchanged = try await api.backend(.get, Recovery.attempt(start.recoveryAttemptId))
                .expect(.ok, RecoveryStatusView.self)
            #expect(exchanged.status == "exchanged" && exchanged.workflowRunId == run && exchanged.faceMatch == "pass")

            var newPhone = TestAuthenticator()
            let replacement = try await api.completeRecovery(
                start.recoveryAttemptId,
                api.registrationResponse(registration.publicKey, authenticator: &newPhone),
                continuationToken: registration.continuationToken
            ).expect(.created, CredentialView.self)
            #expect(replacement.status == "reserved" && replacement.credentialId == newPhone.credentialIDText)
            let registered = try await api.backend(.get, Recovery.attempt(start.recoveryAttemptId))
                .expect(.ok, RecoveryStatusView.self)
            #expect(registered.status == "registered" && registered.credential == replacement)
            // Until the finalize, the lost phone still signs in.
            _ = try await api.signIn(userID: "ada", authenticator: &lostPhone)

            let finalized = try await api.backend(.post, Recovery.attempt(start.recoveryAttemptId) + "/finalize")
                .expect(.ok, RecoveryFinalizeView.self)
            #expect(finalized.credential.credentialId == newPhone.credentialIDText)
            #expect(finalized.credential.status == "active")
            #expect(finalized.revokedCredentialIds == [lost.credentialId])
            let after = try await api.backend(.get, Recovery.attempt(start.recoveryAttemptId))
                .expect(.ok, RecoveryStatusView.self)
            #expect(after.status == "finalized" && after.credential?.status == "active")

            #expect(try await api.redeem(pending, pendingResult.resultToken).status != .ok)
            let (refused, refusedOptions) = try await api.signInSession(userID: "ada")
            #expect(refusedOptions.allowCredentials?.map(\.id.bytes) == [newPhone.credentialID])
            expectError(
                try await api.completeSignIn(refused, api.assertion(refusedOptions, authenticator: &lostPhone)),
                "CREDENTIAL_INACTIVE",
                .forbidden
            )
            #expect(
                try await api.signIn(userID: "ada", authenticator: &newPhone).credentialId == replacement.credentialId
            )
            let listed = try await api.backend(.get, Path.userCredentials("ada")).expect(.ok, CredentialListView.self)
            #expect(listed.credentials.map(\.credentialId) == [replacement.credentialId])

            let actions = try await api.auditEvents(query: "?limit=500").events.filter {
                $0.subject == start.recoveryAttemptId || $0.details["flow"] == start.recoveryAttemptId
            }.map(\.action)
            #expect(
                actions == [
                    "recovery.created", "identity-verification.started", "recovery.exchanged", "recovery.registered",
                    "recovery.finalized",
                ]
            )
        }
    }

    @Test(
        "20 concurrent exchanges of one recovery token over HTTP: exactly one gets the registration data",
        arguments: StoreKind.available
    )
    func concurrentExchanges(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: Recovery.simulated) { _, api in
            var phone = TestAuthenticator()
            try await api.enroll("bo", authenticator: &phone)
            let start = try await api.startRecovery(userID: "bo").expect(.created, RecoveryStart.self)
            let run = try await api.startRecoveryIdentityVerification(start)
            _ = try await api.decide(run: run, "approved", faceMatch: "pass")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try await api.recoveryRegistration(start.recoveryAttemptId, token: start.recoveryToken).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.count { $0 == .ok } == 1)
            #expect(statuses.count { $0 == .unauthorized } == 19)
        }
    }

    @Test(
        "a finalize racing a sign-in with the lost passkey: the sign-in fails, or its result is void; never after",
        arguments: StoreKind.available
    )
    func finalizeRacesSignIn(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: Recovery.simulated) { _, api in
            for round in 0..<5 {
                let userID = "cy\(round)"
                var lostPhone = TestAuthenticator()
                try await api.enroll(userID, authenticator: &lostPhone)
                var newPhone = TestAuthenticator()
                let (start, _) = try await api.registeredRecovery(userID: userID, authenticator: &newPhone)
                let (session, options) = try await api.signInSession(userID: userID)
                let assertion = api.assertion(options, authenticator: &lostPhone)
                async let signedIn = api.completeSignIn(session, assertion)
                async let finalized = api.backend(.post, Recovery.attempt(start.recoveryAttemptId) + "/finalize")
                let (signIn, finalize) = try await (signedIn, finalized)
                #expect(finalize.status == .ok)
                if signIn.status == .ok {
                    let result = try signIn.decode(SignInCompletion.self)
                    #expect(try await api.redeem(session, result.resultToken).status != .ok)
                } else {
                    #expect(signIn.status.code < 500, "\(signIn)")
                }
                #expect(
                    try await api.backend(.get, Path.credential(lostPhone.credentialIDText)).json().object?["status"]?
                        .string == "revoked"
                )
            }
        }
    }

    @Test("a usernameless sign-in with the lost passkey, completed before the finalize, cannot be redeemed after it")
    func usernamelessResultVoided() async throws {
        let server = try TestServer(configure: Recovery.simulated)
        try await server.withAPI { api in
            var lostPhone = TestAuthenticator()
            try await api.enroll("eve", authenticator: &lostPhone)
            let (session, options) = try await api.signInSession(userID: nil)
            let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &lostPhone))
                .expect(.ok, SignInCompletion.self)
            var newPhone = TestAuthenticator()
            let (start, _) = try await api.registeredRecovery(userID: "eve", authenticator: &newPhone)
            #expect(try await api.backend(.post, Recovery.attempt(start.recoveryAttemptId) + "/finalize").status == .ok)
            expectError(try await api.redeem(session, completion.resultToken), "CREDENTIAL_INACTIVE", .forbidden)
            expectError(try await api.redeem(session, completion.resultToken), "RESULT_ALREADY_REDEEMED", .conflict)
        }
    }

    @Test(
        "recovery.revoke: deviceBound revokes only the passkey that could not be synced; none revokes nothing",
        arguments: [RecoveryRevocation.deviceBound, .none]
    )
    func revocationPolicy(revoke: RecoveryRevocation) async throws {
        let server = try TestServer { configuration in
            Recovery.simulated(&configuration)
            configuration.recovery.revoke = revoke
        }
        try await server.withAPI { api in
            var deviceBound = TestAuthenticator()
            let lost = try await api.enroll("dee", authenticator: &deviceBound)
            var synced = TestAuthenticator()
            let attempt = try await api.createRegistration(NewRegistration(userId: "dee"))
            let options = try await api.registrationOptions(attempt)
            let response = try api.registrationResponse(
                options,
                authenticator: &synced,
                flags: [.userPresent, .userVerified, .backupEligible, .backupState]
            )
            let kept = try await api.completeRegistration(attempt, response).expect(.created, CredentialView.self)
            #expect(kept.kind == "synced" && lost.kind == "device-bound")

            var newPhone = TestAuthenticator()
            let (start, replacement) = try await api.registeredRecovery(userID: "dee", authenticator: &newPhone)
            let finalized = try await api.backend(.post, Recovery.attempt(start.recoveryAttemptId) + "/finalize")
                .expect(.ok, RecoveryFinalizeView.self)
            let left = Set(try await api.credentials(of: "dee").map(\.credentialId))
            switch revoke {
            case .deviceBound:
                #expect(finalized.revokedCredentialIds == [lost.credentialId])
                #expect(left == [kept.credentialId, replacement.credentialId])
                let (session, options) = try await api.signInSession(userID: "dee")
                let assertion = api.assertion(
                    options,
                    authenticator: &synced,
                    flags: [.userPresent, .userVerified, .backupEligible, .backupState]
                )
                #expect(try await api.completeSignIn(session, assertion).status == .ok)
            default:
                #expect(finalized.revokedCredentialIds.isEmpty)
                #expect(left == [lost.credentialId, kept.credentialId, replacement.credentialId])
            }
        }
    }
}
