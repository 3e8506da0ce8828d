import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// Flow 1 of DESIGN §3: create → options → complete → status, and the policy the options and the
/// completion apply.
struct RegistrationTests {
    @Test func registersAPasskeyAndReportsTheAttempt() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let attempt = try await api.createRegistration(
                NewRegistration(userId: "alice", userName: "alice@example.com", displayName: "Alice")
            )
            #expect(attempt.registrationAttemptId.hasPrefix("reg_"))
            #expect(attempt.clientToken.count >= 22)

            let options = try await api.registrationOptions(attempt)
            #expect(options.rp.id == "localhost")
            #expect(options.rp.name == server.configuration.rpName)
            #expect(options.user.name == "alice@example.com")
            #expect(options.user.displayName == "Alice")
            // A random 32-byte handle that does not contain the integrator's id.
            #expect(options.user.id.bytes.count == 32)
            #expect(!String(decoding: options.user.id.bytes, as: UTF8.self).contains("alice"))
            #expect(options.challenge.bytes.count >= 16)
            #expect(options.pubKeyCredParams.map(\.alg.rawValue) == [-7, -8, -257])
            #expect(options.timeout == 120_000)
            #expect(options.excludeCredentials ?? [] == [])
            #expect(options.authenticatorSelection?.residentKey == .required)
            #expect(options.authenticatorSelection?.userVerification == .preferred)

            var phone = TestAuthenticator()
            let response = try api.registrationResponse(options, authenticator: &phone)
            let completed = try await api.completeRegistration(attempt, response)
            let credential = try completed.expect(.created, CredentialView.self)
            #expect(credential.credentialId == phone.credentialIDText)
            #expect(credential.userId == "alice")
            #expect(credential.status == "active")
            #expect(credential.name == "Passkey")
            #expect(credential.kind == "device-bound")
            #expect(credential.transports == ["internal"])
            #expect(credential.attestationFormat == "none")
            #expect(credential.lastUsedAt == nil)
            // The public key is never part of a credential view.
            #expect(try completed.json()["publicKey"] == nil)

            let status = try await api.backend(.get, Path.registration(attempt.registrationAttemptId)).expect(
                .ok,
                RegistrationStatusView.self
            )
            #expect(status.registrationAttemptId == attempt.registrationAttemptId)
            #expect(status.userId == "alice")
            #expect(status.status == "completed")
            #expect(status.finalize == "automatic")
            #expect(status.credential == credential)
        }
    }

    @Test func statusFollowsTheAttempt() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            let path = Path.registration(attempt.registrationAttemptId)
            #expect(try await api.backend(.get, path).expect(.ok, RegistrationStatusView.self).status == "created")
            _ = try await api.registrationOptions(attempt)
            #expect(
                try await api.backend(.get, path).expect(.ok, RegistrationStatusView.self).status == "options_issued"
            )
            server.clock.advance(by: 601)
            #expect(try await api.backend(.get, path).expect(.ok, RegistrationStatusView.self).status == "expired")
        }
    }

    @Test func aUserKeepsOneUserHandleAcrossRegistrations() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let first = try await api.registrationOptions(
                try await api.createRegistration(NewRegistration(userId: "alice"))
            )
            let second = try await api.registrationOptions(
                try await api.createRegistration(NewRegistration(userId: "alice"))
            )
            let other = try await api.registrationOptions(
                try await api.createRegistration(NewRegistration(userId: "bob"))
            )
            #expect(first.user.id == second.user.id)
            #expect(first.user.id != other.user.id)
            #expect(first.challenge != second.challenge)
        }
    }

    @Test func excludeCredentialsListsTheUsersCredentials() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            var laptop = TestAuthenticator()
            var bobs = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            try await api.enroll("alice", authenticator: &laptop)
            try await api.enroll("bob", authenticator: &bobs)

            let options = try await api.registrationOptions(
                try await api.createRegistration(NewRegistration(userId: "alice"))
            )
            let excluded = options.excludeCredentials ?? []
            #expect(Set(excluded.map(\.id.bytes)) == [phone.credentialID, laptop.credentialID])
            #expect(excluded.allSatisfy { $0.type == .publicKey && $0.transports == [.internal] })
        }
    }

    @Test func theSameAuthenticatorCannotRegisterTwice() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            for user in ["alice", "bob"] {
                let attempt = try await api.createRegistration(NewRegistration(userId: user))
                let options = try await api.registrationOptions(attempt)
                let response = try api.registrationResponse(options, authenticator: &phone)
                expectError(
                    try await api.completeRegistration(attempt, response),
                    "CREDENTIAL_ALREADY_REGISTERED",
                    .conflict
                )
            }
            #expect(try await api.credentials(of: "alice").count == 1)
        }
    }

    @Test func theNumberOfPasskeysPerUserIsLimited() async throws {
        let server = try TestServer { $0.policy.maxCredentialsPerUser = 2 }
        try await server.withAPI { api in
            var first = TestAuthenticator()
            var second = TestAuthenticator()
            var third = TestAuthenticator()
            try await api.enroll("alice", authenticator: &first)
            try await api.enroll("alice", authenticator: &second)

            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            let response = try api.registrationResponse(
                try await api.registrationOptions(attempt),
                authenticator: &third
            )
            expectError(try await api.completeRegistration(attempt, response), "MAX_CREDENTIALS_REACHED", .conflict)
            #expect(try await api.credentials(of: "alice").count == 2)

            // Other users are not affected; revoking one frees a slot.
            try await api.enroll("bob", authenticator: &third)
            #expect(try await api.backend(.delete, Path.credential(first.credentialIDText)).status == .noContent)
            var fourth = TestAuthenticator()
            try await api.enroll("alice", authenticator: &fourth)
        }
    }

    @Test func anExpiredAttemptIsRefused() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            let options = try await api.registrationOptions(attempt)
            var phone = TestAuthenticator()
            let response = try api.registrationResponse(options, authenticator: &phone)
            server.clock.advance(by: 601)
            expectError(
                try await api.client(
                    .post,
                    Path.registrationOptions(attempt.registrationAttemptId),
                    token: attempt.clientToken
                ),
                "REGISTRATION_ATTEMPT_EXPIRED",
                .gone
            )
            expectError(try await api.completeRegistration(attempt, response), "REGISTRATION_ATTEMPT_EXPIRED", .gone)
        }
    }

    @Test func aCompletedAttemptIssuesNoMoreOptions() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            var phone = TestAuthenticator()
            let response = try api.registrationResponse(
                try await api.registrationOptions(attempt),
                authenticator: &phone
            )
            _ = try await api.completeRegistration(attempt, response).expect(.created, CredentialView.self)
            expectError(
                try await api.client(
                    .post,
                    Path.registrationOptions(attempt.registrationAttemptId),
                    token: attempt.clientToken
                ),
                "REGISTRATION_ATTEMPT_CONFLICT",
                .conflict
            )
            expectError(try await api.completeRegistration(attempt, response), "CHALLENGE_CONSUMED", .conflict)
        }
    }

    /// A registration response that fails verification, and the code it gets.
    struct Rejection: Sendable, CustomTestStringConvertible {
        let name: String
        let code: String
        var configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }
        var algorithm: COSEAlgorithmIdentifier = .es256
        var flags: AuthenticatorDataFlags = [.userPresent, .userVerified]
        var attestation: TestAuthenticator.Attestation = .none
        var modify: @Sendable (inout AuthenticatorDataBuilder, inout ClientDataBuilder) -> Void = { _, _ in }
        /// Changes the response after the authenticator signed it.
        var tamper: @Sendable (inout RegistrationResponseJSON) -> Void = { _ in }
        var testDescription: String { "\(name) → \(code)" }
    }

    static let rejections: [Rejection] = [
        Rejection(
            name: "another origin",
            code: "ORIGIN_NOT_ALLOWED",
            modify: { _, clientData in clientData.origin = "https://evil.example" }
        ),
        Rejection(
            name: "a cross-origin iframe",
            code: "ORIGIN_NOT_ALLOWED",
            modify: { _, clientData in clientData.crossOrigin = true }
        ),
        Rejection(
            name: "another RP ID hash",
            code: "RP_ID_MISMATCH",
            modify: { authenticatorData, _ in
                authenticatorData.rpIDHash = AuthenticatorDataBuilder(rpID: "evil.example").rpIDHash
            }
        ),
        Rejection(
            name: "a sign-in response",
            code: "CEREMONY_TYPE_MISMATCH",
            modify: { _, clientData in clientData.type = "webauthn.get" }
        ),
        Rejection(name: "no UP flag", code: "USER_PRESENCE_REQUIRED", flags: []),
        Rejection(
            name: "no UV when the policy requires it",
            code: "USER_VERIFICATION_REQUIRED",
            configure: { $0.policy.userVerification = .required },
            flags: [.userPresent]
        ),
        Rejection(
            name: "a format the policy leaves out",
            code: "ATTESTATION_FORMAT_NOT_ALLOWED",
            configure: { $0.policy.attestationFormats = [.packed] }
        ),
        Rejection(
            name: "a broken attestation signature",
            code: "ATTESTATION_INVALID",
            attestation: .packedSelf,
            tamper: { response in
                // Whitespace the JSON parser accepts, but the attestation signature covers the exact bytes.
                response.response.clientDataJSON.bytes.insert(0x20, at: 1)
            }
        ),
        Rejection(
            name: "an algorithm not offered",
            code: "ALGORITHM_NOT_ALLOWED",
            configure: { $0.policy.algorithms = [-7] },
            algorithm: .edDSA
        ),
        Rejection(
            name: "a synced passkey when refused",
            code: "SYNCED_CREDENTIALS_NOT_ALLOWED",
            configure: { $0.policy.allowSyncedCredentials = false },
            flags: [.userPresent, .userVerified, .backupEligible]
        ),
        Rejection(
            name: "id differing from rawId",
            code: "INVALID_REQUEST",
            tamper: { response in response.id = "not-the-raw-id" }
        ),
    ]

    @Test(arguments: rejections)
    func aResponseThatDoesNotVerifyIsRefusedAndTheAttemptCanBeRetried(_ rejection: Rejection) async throws {
        let server = try TestServer(configure: rejection.configure)
        try await server.withAPI { api in
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            let options = try await api.registrationOptions(attempt)
            var phone = TestAuthenticator(algorithm: rejection.algorithm)
            phone.userHandle = options.user.id.bytes
            var response = try phone.registrationResponse(
                challenge: options.challenge.bytes,
                origin: server.origin,
                rpID: server.rpID,
                attestation: rejection.attestation,
                flags: rejection.flags,
                modify: rejection.modify
            )
            rejection.tamper(&response)
            expectError(
                try await api.completeRegistration(attempt, response),
                rejection.code,
                .badRequest,
                retryable: false
            )
            #expect(try await api.credentials(of: "alice").isEmpty)

            // The attempt failed, not ended: new options and a good response complete it.
            let retry = try await api.registrationOptions(attempt)
            var good = TestAuthenticator()
            good.userHandle = retry.user.id.bytes
            let goodResponse = try good.registrationResponse(
                challenge: retry.challenge.bytes,
                origin: server.origin,
                rpID: server.rpID,
                attestation: .packedSelf
            )
            let accepted = try await api.completeRegistration(attempt, goodResponse)
            #expect(accepted.status == .created, "\(accepted)")
        }
    }
}
