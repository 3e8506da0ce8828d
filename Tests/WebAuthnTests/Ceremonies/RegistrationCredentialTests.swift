import PasskeyTesting
import Testing

@testable import WebAuthn

/// §7.1: the credential a registration response carries, and what the ceremony returns for it.
struct RegistrationCredentialTests {
    static let algorithms: [COSEAlgorithmIdentifier] = [.es256, .es384, .es512, .edDSA, .rs256, .ps256]

    @Test(
        "§7.1: a registration with each algorithm verifies, and §7.1 step 26's record authenticates (§7.2)",
        arguments: algorithms
    )
    func registersAndAuthenticates(_ algorithm: COSEAlgorithmIdentifier) async throws {
        var authenticator = TestAuthenticator(algorithm: algorithm)
        authenticator.signCount = 7
        let response = try Fixture.registration(authenticator, flags: [.userPresent, .userVerified, .backupEligible])
        let registration = try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        #expect(registration.credentialID == authenticator.credentialID)
        #expect(registration.credentialPublicKey.cborRepresentation == authenticator.key.coseKey)
        #expect(registration.credentialPublicKey.algorithm == algorithm)
        #expect(registration.signCount == 7)
        #expect(registration.aaguid.bytes == authenticator.aaguid)
        #expect(registration.attestation.format == .none)
        #expect(registration.attestation.type == .none)
        #expect(!registration.attestation.trusted)
        #expect(registration.userVerified)
        #expect(registration.backupEligible && !registration.backupState)
        #expect(registration.transports == [.internal])
        #expect(registration.authenticatorAttachment == .platform)
        #expect(registration.clientData.type == "webauthn.create")

        let record = CredentialRecord(
            id: registration.credentialID,
            publicKey: registration.credentialPublicKey,
            signCount: registration.signCount,
            userHandle: authenticator.userHandle,
            backupEligible: registration.backupEligible
        )
        let assertion = Fixture.authentication(&authenticator, flags: [.userPresent, .userVerified, .backupEligible])
        let authentication = try Fixture.authenticationCeremony(user: .identified(userHandle: authenticator.userHandle))
            .verify(assertion, credential: record)
        #expect(authentication.credentialID == authenticator.credentialID)
        #expect(authentication.signCount == 8)
        #expect(!authentication.signCountRegressed)
        #expect(authentication.userHandle == authenticator.userHandle)
    }

    @Test(
        "§7.1 step 3: the credential type must be public-key",
        arguments: ["", "password", "Public-Key", "public-key "]
    )
    func credentialType(_ type: String) async throws {
        var response = try Fixture.registration(TestAuthenticator())
        _ = try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        response.type = PublicKeyCredentialType(rawValue: type)
        await #expect(throws: code(.credentialTypeMismatch)) {
            try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        }
    }

    @Test("§7.1 step 3: id must be the base64url encoding of rawId")
    func idBindsRawID() async throws {
        let authenticator = TestAuthenticator()
        let encoded = Base64URL.encode(authenticator.credentialID)
        for id in [
            "", encoded + "=", String(encoded.dropLast()), Base64URL.encode(authenticator.credentialID.reversed()),
            encoded.uppercased(),
        ] where id != encoded {
            var response = try Fixture.registration(authenticator)
            response.id = id
            await #expect(throws: code(.credentialIDMismatch), "id \(id)") {
                try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
            }
        }
    }

    @Test("§7.1: rawId must be the credential id in the attested credential data")
    func rawIDBindsAuthenticatorData() async throws {
        var response = try Fixture.registration(TestAuthenticator())
        let other = [UInt8](repeating: 0x5A, count: 32)
        response.rawId = Base64URLBytes(other)
        response.id = Base64URL.encode(other)
        await #expect(throws: code(.credentialIDMismatch)) {
            try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        }
    }

    @Test("§7.1 step 12: a registration without attested credential data (no AT) is ATTESTED_CREDENTIAL_DATA_MISSING")
    func attestedCredentialDataMissing() async throws {
        let response = try Fixture.registration(TestAuthenticator()) { authenticatorData, _ in
            authenticatorData.credentialID = nil
        }
        await #expect(throws: code(.attestedCredentialDataMissing)) {
            try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        }
    }

    @Test(
        "§7.1 step 18: the credential algorithm must be one of pubKeyCredParams",
        arguments: [
            (COSEAlgorithmIdentifier.edDSA, [COSEAlgorithmIdentifier.es256, .rs256], false), (.es256, [.edDSA], false),
            (.es384, [.es256, .es512], false),
            (.es256, [.es256], true), (.edDSA, [.es256, .edDSA], true),
        ]
    )
    func algorithmOffered(
        _ algorithm: COSEAlgorithmIdentifier,
        _ offered: [COSEAlgorithmIdentifier],
        _ accepted: Bool
    ) async throws {
        let response = try Fixture.registration(TestAuthenticator(algorithm: algorithm))
        let ceremony = Fixture.registrationCeremony(allowedAlgorithms: offered)
        if accepted {
            _ = try await ceremony.verify(response, at: Fixture.now)
        } else {
            await #expect(throws: code(.algorithmNotAllowed)) { try await ceremony.verify(response, at: Fixture.now) }
        }
    }

    @Test("§7.1 step 19: authenticator extension outputs are returned; client extension results are passed through")
    func extensionOutputs() async throws {
        let outputs = CBORValue.map([CBORMapEntry(.text("credProtect"), CBORValue(3))])
        var response = try Fixture.registration(TestAuthenticator()) { authenticatorData, _ in
            authenticatorData.extensions = CBOREncoder.encode(outputs)
        }
        response.clientExtensionResults = ["credProps": .object(["rk": .bool(true)])]
        let registration = try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        #expect(registration.authenticatorData.extensions == outputs)
        #expect(registration.clientExtensionResults == ["credProps": .object(["rk": .bool(true)])])
    }
}
