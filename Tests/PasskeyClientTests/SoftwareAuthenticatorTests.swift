import Foundation
import PasskeyClient
import PasskeyTesting
import Testing
import WebAuthn

@Suite("SoftwareAuthenticator: its output verifies with the WebAuthn library")
struct SoftwareAuthenticatorTests {
    typealias Behaviour = SoftwareAuthenticator.Behaviour

    /// Every combination of the switches that mimic real platforms.
    static let behaviours: [Behaviour] = Behaviour.Attestation.allCases.flatMap { attestation in
        Behaviour.Counter.allCases.flatMap { counter in
            Behaviour.Backup.allCases.flatMap { backup in
                [true, false].map { resident in
                    Behaviour(
                        attestation: attestation,
                        counter: counter,
                        backup: backup,
                        residentKeys: resident,
                        aaguid: Array(repeating: 0xAB, count: 16)
                    )
                }
            }
        }
    }

    @Test("registration and two sign-ins verify for every switch combination", arguments: behaviours)
    func verifies(behaviour: Behaviour) async throws {
        let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore(), behaviour: behaviour)
        let options = Fixtures.creationOptions(
            attestation: .direct,
            residentKey: behaviour.residentKeys ? .required : .discouraged
        )
        let response = try await authenticator.makeCredential(Fixtures.creationRequest(options))

        let registration = try await RegistrationCeremony(
            challenge: Fixtures.challenge,
            relyingPartyID: Fixtures.rpID,
            origins: OriginPolicy(Fixtures.origin),
            userVerification: .required
        ).verify(response, at: Date())
        #expect(
            registration.attestation.format == (behaviour.attestation == .packedSelf ? .packed : AttestationFormat.none)
        )
        #expect(
            registration.aaguid.bytes
                == (behaviour.attestation == .packedSelf ? behaviour.aaguid : Array(repeating: 0, count: 16))
        )
        #expect(registration.userVerified)
        #expect(registration.backupEligible == (behaviour.backup != .deviceBound))
        #expect(registration.backupState == (behaviour.backup == .synced))
        #expect(registration.signCount == 0)
        #expect(registration.transports == behaviour.transports)
        #expect(response.response.publicKeyAlgorithm == .es256 && response.response.publicKey != nil)

        var exported = IndependentVerification.Case(behaviour: behaviour, registration: response)
        var record = CredentialRecord(
            id: registration.credentialID,
            publicKey: registration.credentialPublicKey,
            signCount: registration.signCount,
            userHandle: Fixtures.userHandle,
            backupEligible: registration.backupEligible
        )
        for round in 1...2 {
            let assertion = try await authenticator.getAssertion(
                Fixtures.assertionRequest(
                    Fixtures.requestOptions(allow: behaviour.residentKeys ? [] : [registration.credentialID])
                )
            )
            let verified = try AuthenticationCeremony(
                challenge: Fixtures.challenge,
                relyingPartyID: Fixtures.rpID,
                origins: OriginPolicy(Fixtures.origin),
                user: behaviour.residentKeys ? .discoverable : .identified(userHandle: Fixtures.userHandle),
                userVerification: .required,
                signCountPolicy: .rejectRegression
            ).verify(assertion, credential: record)
            if round == 1 { exported.authentication = assertion }
            #expect(verified.signCount == (behaviour.counter == .incrementing ? UInt32(round) : 0))
            #expect(verified.userHandle == (behaviour.residentKeys ? Fixtures.userHandle : nil))
            #expect(verified.backupState == (behaviour.backup == .synced))
            record.signCount = verified.signCount
        }
        try exported.write()
    }

    @Test("attestation 'none' in the options strips packed attestation, as browsers do")
    func conveyanceNone() async throws {
        let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore(), behaviour: .securityKey)
        let response = try await authenticator.makeCredential(
            Fixtures.creationRequest(Fixtures.creationOptions(attestation: AttestationConveyancePreference.none))
        )
        let attestation = try AttestationObject(bytes: response.response.attestationObject.bytes)
        #expect(attestation.format == AttestationFormat.none)
    }

    @Test("user verification: required needs a verified user; discouraged asks only for presence")
    func userVerification() async throws {
        let presenceOnly = SoftwareAuthenticator(
            keyStore: MemoryKeyStore(),
            verifier: AutomaticUserVerifier(verifiesUser: false)
        )
        let error = await passkeyError {
            _ = try await presenceOnly.makeCredential(
                Fixtures.creationRequest(Fixtures.creationOptions(userVerification: .required))
            )
        }
        #expect(error?.code == .userVerificationFailed)

        let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore())
        let response = try await authenticator.makeCredential(
            Fixtures.creationRequest(Fixtures.creationOptions(userVerification: .discouraged))
        )
        let registration = try await RegistrationCeremony(
            challenge: Fixtures.challenge,
            relyingPartyID: Fixtures.rpID,
            origins: OriginPolicy(Fixtures.origin),
            userVerification: .discouraged
        ).verify(response, at: Date())
        #expect(!registration.userVerified)
        let assertion = try await authenticator.getAssertion(
            Fixtures.assertionRequest(Fixtures.requestOptions(userVerification: .required))
        )
        let flags = try AuthenticatorData(bytes: assertion.response.authenticatorData.bytes).flags
        #expect(flags.contains(.userVerified))
    }

    @Test("the verifier sees the ceremony, the RP, the account and the requirement; its errors pass through")
    func verifierRequests() async throws {
        let seen = RequestLog()
        let verifier = ClosureUserVerifier { request throws(PasskeyError) in
            await seen.append(request)
            if request.ceremony == .authentication { throw PasskeyError(.biometricLockout, "locked") }
            return .verified
        }
        let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore(), verifier: verifier)
        _ = try await authenticator.makeCredential(
            Fixtures.creationRequest(Fixtures.creationOptions(userVerification: .required))
        )
        let error = await passkeyError { _ = try await authenticator.getAssertion(Fixtures.assertionRequest()) }
        #expect(error?.code == .biometricLockout)
        let requests = await seen.requests
        #expect(requests.map(\.ceremony) == [.registration, .authentication])
        #expect(requests.map(\.userVerification) == [.required, .preferred])
        #expect(requests.allSatisfy { $0.rpID == Fixtures.rpID && $0.userName == "alice" })
    }

    @Test("excludeCredentials: a passkey already here ends registration with PASSKEY_ALREADY_EXISTS")
    func exclude() async throws {
        let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore())
        let first = try await authenticator.makeCredential(Fixtures.creationRequest())
        let error = await passkeyError {
            _ = try await authenticator.makeCredential(
                Fixtures.creationRequest(
                    Fixtures.creationOptions(exclude: [Array(repeating: 9, count: 16), first.rawId.bytes])
                )
            )
        }
        #expect(error?.code == .passkeyAlreadyExists)
        // An excluded id of another RP, or not here, does not stop it.
        _ = try await authenticator.makeCredential(
            Fixtures.creationRequest(Fixtures.creationOptions(exclude: [Array(repeating: 9, count: 16)]))
        )
    }

    @Test("allowCredentials: only listed passkeys are used; none here is PASSKEY_NOT_FOUND")
    func allow() async throws {
        let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore())
        let first = try await authenticator.makeCredential(
            Fixtures.creationRequest(Fixtures.creationOptions(residentKey: .discouraged))
        )
        let error = await passkeyError {
            _ = try await authenticator.getAssertion(
                Fixtures.assertionRequest(Fixtures.requestOptions(allow: [[1, 2, 3]]))
            )
        }
        #expect(error?.code == .passkeyNotFound)
        // Non-discoverable: not offered for usernameless sign-in.
        #expect(
            await passkeyError { _ = try await authenticator.getAssertion(Fixtures.assertionRequest()) }?.code
                == .passkeyNotFound
        )
        let assertion = try await authenticator.getAssertion(
            Fixtures.assertionRequest(Fixtures.requestOptions(allow: [[1, 2, 3], first.rawId.bytes]))
        )
        #expect(assertion.rawId == first.rawId)
        #expect(assertion.response.userHandle == nil)
    }

    @Test(
        "capabilities: required resident keys and algorithms other than ES256 are refused with HARDWARE_NOT_AVAILABLE"
    )
    func capabilities() async throws {
        let noResidentKeys = SoftwareAuthenticator(
            keyStore: MemoryKeyStore(),
            behaviour: Behaviour(residentKeys: false)
        )
        #expect(
            await passkeyError { _ = try await noResidentKeys.makeCredential(Fixtures.creationRequest()) }?.code
                == .hardwareNotAvailable
        )
        let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore())
        #expect(
            await passkeyError {
                _ = try await authenticator.makeCredential(
                    Fixtures.creationRequest(Fixtures.creationOptions(algorithms: [.rs256, .edDSA]))
                )
            }?.code == .hardwareNotAvailable
        )
        // No pubKeyCredParams: the WebAuthn defaults, ES256 among them.
        _ = try await authenticator.makeCredential(Fixtures.creationRequest(Fixtures.creationOptions(algorithms: [])))
    }

    @Test("credProps reports whether the credential is discoverable")
    func credProps() async throws {
        let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore())
        let response = try await authenticator.makeCredential(
            Fixtures.creationRequest(
                Fixtures.creationOptions(residentKey: .preferred, extensions: ["credProps": .bool(true)])
            )
        )
        #expect(response.clientExtensionResults["credProps"] == .object(["rk": .bool(true)]))
    }

    @Test("a new discoverable passkey replaces the user's previous one on this RP; list and delete")
    func listAndDelete() async throws {
        let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore())
        _ = try await authenticator.makeCredential(Fixtures.creationRequest())
        let second = try await authenticator.makeCredential(Fixtures.creationRequest())
        let listed = try await authenticator.credentials(rpDomain: Fixtures.rpID)
        #expect(listed.map(\.credentialId) == [second.id])
        #expect(
            listed.first?.userId == "alice" && listed.first?.userName == "alice" && listed.first?.isDiscoverable == true
        )
        #expect(try await authenticator.credentials(rpDomain: "other.example").isEmpty)
        try await authenticator.deleteCredential(id: second.id)
        #expect(try await authenticator.credentials(rpDomain: nil).isEmpty)
        #expect(
            await passkeyError { try await authenticator.deleteCredential(id: second.id) }?.code == .passkeyNotFound
        )
        #expect(
            await passkeyError { try await authenticator.deleteCredential(id: "not base64url!") }?.code == .invalidInput
        )
    }

    @Test("lastUsedAt and the stored counter follow each sign-in")
    func usage() async throws {
        let clock = TestClock()
        let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore(), now: clock.read)
        _ = try await authenticator.makeCredential(Fixtures.creationRequest())
        #expect(try await authenticator.credentials(rpDomain: nil).first?.lastUsedAt == nil)
        clock.advance(by: 60)
        _ = try await authenticator.getAssertion(Fixtures.assertionRequest())
        #expect(try await authenticator.credentials(rpDomain: nil).first?.lastUsedAt == TestTime.fixed + 60)
    }
}

actor RequestLog {
    var requests: [UserVerificationRequest] = []
    func append(_ request: UserVerificationRequest) { requests.append(request) }
}
