import Crypto
import Foundation
import PasskeyClient
import Testing
import WebAuthn

/// The AutoFill credential provider's decisions, which the Apple adapters (`PasskeyCredentialProviderViewController`,
/// `SystemCredentialIdentityStore`) only carry to and from AuthenticationServices. The system's identity store cannot
/// run here: ``RecordingIdentityStore`` stands in for it at that seam.
@Suite("AutoFill credential provider: which passkey, which flags, what is signed, which identities")
struct CredentialProviderTests {
    static let deviceBound = SoftwareAuthenticator.Behaviour(counter: .incrementing, backup: .deviceBound)

    /// The client data a browser would build, and its hash, which is all the system hands the extension.
    static func clientData() -> (json: [UInt8], hash: [UInt8]) {
        let json = Array(
            #"{"type":"webauthn.get","challenge":"\#(Base64URL.encode(Fixtures.challenge))","origin":"\#(Fixtures.origin)","crossOrigin":false}"#
                .utf8
        )
        return (json, Array(SHA256.hash(data: json)))
    }

    static func handle(_ userId: String) -> [UInt8] { Array(SHA256.hash(data: Array(userId.utf8))) }

    static func enroll(
        _ authenticator: SoftwareAuthenticator,
        userId: String = "alice",
        rpID: String = Fixtures.rpID,
        residentKey: ResidentKeyRequirement = .required
    ) async throws -> RegistrationResponseJSON {
        var options = Fixtures.creationOptions(residentKey: residentKey)
        options.rp = PublicKeyCredentialRpEntity(id: rpID, name: "Example")
        // A user handle of each user's own: an authenticator keeps one discoverable passkey per account.
        options.user = PublicKeyCredentialUserEntityJSON(
            id: Base64URLBytes(handle(userId)),
            name: userId,
            displayName: userId
        )
        return try await authenticator.makeCredential(
            CredentialCreationRequest(options: options, origin: "https://\(rpID)", rpID: rpID, userId: userId)
        )
    }

    @Test("an answer over the system's client data hash verifies as a device-bound, user-verified sign-in")
    func assertionVerifies() async throws {
        let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore(), behaviour: Self.deviceBound)
        let registration = try await RegistrationCeremony(
            challenge: Fixtures.challenge,
            relyingPartyID: Fixtures.rpID,
            origins: OriginPolicy(Fixtures.origin),
            userVerification: .required
        ).verify(try await Self.enroll(authenticator), at: Date())
        var record = CredentialRecord(
            id: registration.credentialID,
            publicKey: registration.credentialPublicKey,
            signCount: registration.signCount,
            userHandle: Self.handle("alice"),
            backupEligible: registration.backupEligible
        )
        for round in UInt32(1)...2 {
            let clientData = Self.clientData()
            let assertion = try await authenticator.provideAssertion(
                ProviderAssertionRequest(
                    rpID: Fixtures.rpID,
                    credentialID: registration.credentialID,
                    userHandle: Self.handle("alice"),
                    clientDataHash: clientData.hash,
                    userVerification: .required
                )
            )
            #expect(assertion.clientDataHash == clientData.hash)
            #expect(assertion.userHandle == Self.handle("alice"))
            // What the system sends the relying party: the browser's client data with the extension's answer.
            let response = AuthenticationResponseJSON(
                id: Base64URL.encode(assertion.credentialID),
                rawId: Base64URLBytes(assertion.credentialID),
                response: AuthenticatorAssertionResponseJSON(
                    clientDataJSON: Base64URLBytes(clientData.json),
                    authenticatorData: Base64URLBytes(assertion.authenticatorData),
                    signature: Base64URLBytes(assertion.signature),
                    userHandle: Base64URLBytes(assertion.userHandle)
                ),
                authenticatorAttachment: .platform
            )
            let verified = try AuthenticationCeremony(
                challenge: Fixtures.challenge,
                relyingPartyID: Fixtures.rpID,
                origins: OriginPolicy(Fixtures.origin),
                user: .discoverable,
                userVerification: .required,
                signCountPolicy: .rejectRegression
            ).verify(response, credential: record)
            #expect(verified.userVerified)
            #expect(!verified.backupEligible && !verified.backupState)
            #expect(verified.signCount == round)
            record.signCount = verified.signCount
        }
    }

    @Test("the passkey the request names, for its relying party and user handle, and no other")
    func namedPasskeyOnly() async throws {
        let authenticator = SoftwareAuthenticator(keyStore: MemoryKeyStore(), behaviour: Self.deviceBound)
        let first = try await Self.enroll(authenticator, userId: "alice")
        let second = try await Self.enroll(authenticator, userId: "bob")
        let hash = Self.clientData().hash
        func request(
            _ credential: RegistrationResponseJSON,
            rpID: String = Fixtures.rpID,
            userHandle: [UInt8]?,
            hash: [UInt8] = hash
        ) -> ProviderAssertionRequest {
            ProviderAssertionRequest(
                rpID: rpID,
                credentialID: credential.rawId.bytes,
                userHandle: userHandle,
                clientDataHash: hash,
                userVerification: .preferred
            )
        }
        for (credential, user) in [(first, "alice"), (second, "bob")] {
            let assertion = try await authenticator.provideAssertion(request(credential, userHandle: Self.handle(user)))
            #expect(assertion.credentialID == credential.rawId.bytes)
            #expect(assertion.userHandle == Self.handle(user))
        }
        #expect(
            try await authenticator.provideAssertion(request(second, userHandle: nil)).credentialID
                == second.rawId.bytes
        )

        let refusals: [(ProviderAssertionRequest, PasskeyError.Code, ProviderRefusal)] = [
            (request(first, rpID: "other.example", userHandle: nil), .passkeyNotFound, .credentialIdentityNotFound),
            (request(first, userHandle: Self.handle("bob")), .passkeyNotFound, .credentialIdentityNotFound),
            (request(first, userHandle: nil, hash: Array(hash.dropLast())), .invalidInput, .failed),
        ]
        for (refused, code, refusal) in refusals {
            do {
                _ = try await authenticator.provideAssertion(refused)
                Issue.record("a request that should be refused was answered: \(refused)")
            } catch {
                #expect(error.code == code)
                #expect(ProviderRefusal(error) == refusal)
            }
        }
        #expect(ProviderRefusal(PasskeyError(.userCancelled, "dismissed")) == .userCanceled)
    }

    @Test("a user the prompt does not verify gets no answer where the request requires verification")
    func verificationRequired() async throws {
        let authenticator = SoftwareAuthenticator(
            keyStore: MemoryKeyStore(),
            verifier: AutomaticUserVerifier(verifiesUser: false),
            behaviour: Self.deviceBound
        )
        let credential = try await Self.enroll(authenticator, residentKey: .required)
            .rawId.bytes
        let request = ProviderAssertionRequest(
            rpID: Fixtures.rpID,
            credentialID: credential,
            userHandle: nil,
            clientDataHash: Self.clientData().hash,
            userVerification: .required
        )
        await #expect(throws: PasskeyError.self) { try await authenticator.provideAssertion(request) }
    }

    @Test("sync lists the relying party's discoverable passkeys: one user's after enrolment, all on foreground")
    func identitySync() async throws {
        let keyStore = MemoryKeyStore()
        let authenticator = SoftwareAuthenticator(keyStore: keyStore, behaviour: Self.deviceBound)
        let alice = try await Self.enroll(authenticator, userId: "alice")
        let bob = try await Self.enroll(authenticator, userId: "bob")
        _ = try await Self.enroll(authenticator, userId: "alice", residentKey: .discouraged)
        _ = try await Self.enroll(authenticator, userId: "alice", rpID: "other.example")
        let store = RecordingIdentityStore(enabled: true, incremental: true)
        let sync = CredentialIdentitySync(keyStore: keyStore, identityStore: store, rpID: Fixtures.rpID)

        let afterEnrolment = try await sync.syncUser("alice")
        #expect(afterEnrolment == .synced(try await sync.identities(userId: "alice")))
        #expect(await store.identities.map(\.credentialID) == [alice.rawId.bytes])
        #expect(await store.identities.first?.recordIdentifier == alice.id)

        try await authenticator.deleteCredential(id: alice.id)
        _ = try await sync.syncAll()
        #expect(await store.identities.map(\.credentialID) == [bob.rawId.bytes])
        #expect(await store.identities.map(\.userName) == ["bob"])
        #expect(await store.identities.map(\.userHandle) == [Self.handle("bob")])

        try await sync.removeAll()
        #expect(await store.identities.isEmpty)
    }

    @Test("a store without single changes is replaced whole; a provider turned off is left alone")
    func storeStates() async throws {
        let keyStore = MemoryKeyStore()
        let authenticator = SoftwareAuthenticator(keyStore: keyStore, behaviour: Self.deviceBound)
        _ = try await Self.enroll(authenticator, userId: "alice")
        _ = try await Self.enroll(authenticator, userId: "bob")

        let whole = RecordingIdentityStore(enabled: true, incremental: false)
        let sync = CredentialIdentitySync(keyStore: keyStore, identityStore: whole, rpID: Fixtures.rpID)
        _ = try await sync.syncUser("alice")
        #expect(await whole.identities.count == 2)
        #expect(await whole.calls == ["replaceAll"])

        let off = RecordingIdentityStore(enabled: false, incremental: true)
        let disabled = CredentialIdentitySync(keyStore: keyStore, identityStore: off, rpID: Fixtures.rpID)
        #expect(try await disabled.syncUser("alice") == .providerDisabled)
        #expect(try await disabled.syncAll() == .providerDisabled)
        try await disabled.removeAll()
        #expect(await off.calls.isEmpty)
    }
}

/// The system's identity store, in memory, with the calls it received.
actor RecordingIdentityStore: CredentialIdentityStoring {
    let enabled: Bool
    let incremental: Bool
    private(set) var identities: [PasskeyCredentialIdentity] = []
    private(set) var calls: [String] = []

    init(enabled: Bool, incremental: Bool) {
        self.enabled = enabled
        self.incremental = incremental
    }

    func state() -> CredentialIdentityStoreState {
        CredentialIdentityStoreState(isEnabled: enabled, supportsIncrementalUpdates: incremental)
    }

    func save(_ saved: [PasskeyCredentialIdentity]) throws(PasskeyError) {
        calls.append("save")
        identities.removeAll { identity in saved.contains { $0.recordIdentifier == identity.recordIdentifier } }
        identities += saved
    }

    func replaceAll(with replacement: [PasskeyCredentialIdentity]) throws(PasskeyError) {
        calls.append("replaceAll")
        identities = replacement
    }

    func removeAll() throws(PasskeyError) {
        calls.append("removeAll")
        identities = []
    }
}
