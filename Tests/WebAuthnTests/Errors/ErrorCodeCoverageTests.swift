import Crypto
import PasskeyTesting
import Testing
import X509

@testable import WebAuthn

/// A meta-test: every error code is raised by at least one test of this target. Each entry names the test
/// that checks the code in depth and carries a small witness that raises it, run here to prove it still does.
struct ErrorCodeCoverageTests {
    struct Witness: Sendable, CustomTestStringConvertible {
        let code: WebAuthnError.Code
        /// The suite and test that check this code in depth.
        let test: String
        let raise: @Sendable () async throws -> Void
        var testDescription: String { "\(code.rawValue) (\(test))" }
    }

    /// Codes with no witness, and why. A code leaves this list as soon as a test raises it.
    static let uncovered: [WebAuthnError.Code: String] = [:]

    static func register(
        _ authenticator: TestAuthenticator,
        ceremony: RegistrationCeremony = Fixture.registrationCeremony(),
        attestation: TestAuthenticator.Attestation = .none,
        flags: AuthenticatorDataFlags = [.userPresent, .userVerified],
        modify: (inout AuthenticatorDataBuilder, inout ClientDataBuilder) -> Void = { _, _ in }
    ) async throws {
        _ = try await ceremony.verify(
            try Fixture.registration(authenticator, attestation: attestation, flags: flags, modify: modify),
            at: Fixture.now
        )
    }

    static func authenticate(
        ceremony: AuthenticationCeremony = Fixture.authenticationCeremony(),
        record: ((CredentialRecord) -> CredentialRecord)? = nil,
        signCount: UInt32? = nil,
        change: (inout AuthenticationResponseJSON) -> Void = { _ in },
        modify: (inout AuthenticatorDataBuilder, inout ClientDataBuilder) -> Void = { _, _ in }
    ) throws {
        var authenticator = TestAuthenticator()
        let stored = record.map { $0(authenticator.record) } ?? authenticator.record
        if let signCount { authenticator.signCount = signCount }
        var response = Fixture.authentication(&authenticator, incrementCounter: signCount == nil, modify: modify)
        change(&response)
        _ = try ceremony.verify(response, credential: stored)
    }

    static let witnesses: [Witness] = [
        Witness(code: .invalidOptions, test: "OptionsBuilderTests/creationOptionsRejections") {
            _ = try RequestOptionsBuilder(relyingPartyID: "Example.COM").build(
                challenge: [UInt8](repeating: 1, count: 32)
            )
        },
        Witness(code: .unsupportedFeature, test: "AssertionAttestationTests/refused") {
            try authenticate(change: { $0.response.attestationObject = [0xA0] })
        },
        Witness(code: .inputTooLarge, test: "CBORLimitTests/inputSize") {
            _ = try CBORDecoder(limits: CBORLimits(maximumInputSize: 1)).decode([0x41, 0x00])
        },
        Witness(code: .invalidBase64URL, test: "Base64URLTests/rejected") { _ = try Base64URL.decode("Zm9v+w") },
        Witness(code: .malformedJSON, test: "JSONRejectionTests/malformedAuthentication") {
            _ = try AuthenticationResponseJSON(jsonBytes: Array("{}".utf8))
        },
        Witness(code: .malformedCBOR, test: "CBORRejectionTests/indefiniteLength") {
            _ = try CBORDecoder().decode([0x9F, 0xFF])
        },
        Witness(code: .malformedClientData, test: "CollectedClientDataTests/malformed") {
            _ = try CollectedClientData(jsonBytes: Array("[]".utf8))
        },
        Witness(code: .malformedAuthenticatorData, test: "AuthenticatorDataRejectionTests/tooShort") {
            _ = try AuthenticatorData(bytes: [])
        },
        Witness(code: .malformedAttestationObject, test: "AttestationObjectTests/malformed") {
            _ = try AttestationObject(bytes: [0xA0])
        },
        Witness(code: .invalidCOSEKey, test: "COSEKeyRejectionTests/missingParameter") {
            _ = try COSEKey(cborRepresentation: [0xA0])
        },
        Witness(code: .unsupportedAlgorithm, test: "COSEKeyRejectionTests/unknownAlgorithm") {
            _ = try COSEKey(
                cborRepresentation: CBOREncoder.encode(
                    .map([CBORMapEntry(CBORValue(1), CBORValue(2)), CBORMapEntry(CBORValue(3), CBORValue(-999))])
                )
            )
        },
        Witness(code: .weakKey, test: "COSEKeyRejectionTests/weakRSA") {
            _ = try COSEKey(
                cborRepresentation: CBOREncoder.encode(
                    .map(COSEKeyRejectionTests.rsaEntries(modulus: [0xC3] + [UInt8](repeating: 0xFF, count: 127)))
                )
            )
        },
        Witness(code: .algorithmNotAllowed, test: "RegistrationCredentialTests/algorithmOffered") {
            try await register(TestAuthenticator(), ceremony: Fixture.registrationCeremony(allowedAlgorithms: [.edDSA]))
        },
        Witness(code: .signatureInvalid, test: "AuthenticationCredentialTests/signature") {
            try authenticate(change: { $0.response.signature.bytes[8] ^= 1 })
        },
        Witness(code: .credentialTypeMismatch, test: "RegistrationCredentialTests/credentialType") {
            try authenticate(change: { $0.type = "password" })
        },
        Witness(code: .ceremonyTypeMismatch, test: "ClientDataStepTests/ceremonyType") {
            try authenticate(modify: { _, clientData in clientData.type = "webauthn.create" })
        },
        Witness(code: .challengeMismatch, test: "ClientDataStepTests/challenge") {
            try authenticate(modify: { _, clientData in clientData.challenge = [1] })
        },
        Witness(code: .originNotAllowed, test: "ClientDataStepTests/disallowedOrigin") {
            try authenticate(modify: { _, clientData in clientData.origin = "https://evil.example" })
        },
        Witness(code: .crossOriginNotAllowed, test: "ClientDataStepTests/crossOrigin") {
            try authenticate(modify: { _, clientData in clientData.crossOrigin = true })
        },
        Witness(code: .topOriginNotAllowed, test: "ClientDataStepTests/topOrigin") {
            try authenticate(modify: { _, clientData in clientData.topOrigin = "https://top.example" })
        },
        Witness(code: .tokenBindingInvalid, test: "ClientDataStepTests/tokenBindingRejected") {
            try authenticate(modify: { _, clientData in
                clientData.extraMembers = [#""tokenBinding":{"status":"present"}"#]
            })
        },
        Witness(code: .rpIDMismatch, test: "AuthenticatorDataStepTests/rpIDHashMismatch") {
            try authenticate(modify: { authenticatorData, _ in
                authenticatorData.rpIDHash = Array(SHA256.hash(data: Array("evil.example".utf8)))
            })
        },
        Witness(code: .userPresenceRequired, test: "AuthenticatorDataStepTests/userPresence") {
            try authenticate(modify: { authenticatorData, _ in authenticatorData.flags = [] })
        },
        Witness(code: .userVerificationRequired, test: "AuthenticatorDataStepTests/userVerification") {
            try authenticate(
                ceremony: Fixture.authenticationCeremony(userVerification: .required),
                modify: { authenticatorData, _ in authenticatorData.flags = .userPresent }
            )
        },
        Witness(
            code: .backupFlagsInvalid,
            test:
                "AuthenticatorDataRejectionTests/backupStateWithoutEligibility, AuthenticationCredentialTests/backupEligibilityUnchanged"
        ) {
            try authenticate(modify: { authenticatorData, _ in authenticatorData.flags.insert(.backupState) })
        },
        Witness(code: .backupEligibleNotAllowed, test: "AuthenticatorDataStepTests/backupEligiblePolicy") {
            try authenticate(
                ceremony: Fixture.authenticationCeremony(allowBackupEligible: false),
                modify: { authenticatorData, _ in authenticatorData.flags.insert(.backupEligible) }
            )
        },
        Witness(code: .credentialIDMismatch, test: "AuthenticationCredentialTests/allowCredentials") {
            try authenticate(ceremony: Fixture.authenticationCeremony(allowCredentials: [[1, 2, 3]]))
        },
        Witness(code: .credentialIDTooLong, test: "AuthenticatorDataRejectionTests/credentialIDTooLong") {
            try await register(TestAuthenticator(credentialID: Array(repeating: 7, count: 1024)))
        },
        Witness(code: .attestedCredentialDataMissing, test: "RegistrationCredentialTests/attestedCredentialDataMissing")
        {
            try await register(
                TestAuthenticator(),
                modify: { authenticatorData, _ in authenticatorData.credentialID = nil }
            )
        },
        Witness(code: .userHandleMismatch, test: "UserIdentificationTests/discoverable") {
            try authenticate(
                ceremony: Fixture.authenticationCeremony(user: .discoverable),
                change: { $0.response.userHandle = nil }
            )
        },
        Witness(code: .signCountRegression, test: "SignCountTests/signCount") {
            try authenticate(
                record: { record in
                    var record = record
                    record.signCount = 10
                    return record
                },
                signCount: 3
            )
        },
        Witness(code: .attestationFormatUnsupported, test: "AttestationPolicyStepTests/unknownFormat") {
            let response = try Fixture.rewritingAttestationObject(try Fixture.registration(TestAuthenticator())) {
                Fixture.set("fmt", .text("Packed"), in: &$0)
            }
            _ = try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        },
        Witness(code: .attestationFormatNotAllowed, test: "AttestationPolicyStepTests/formatNotAllowed") {
            try await register(
                TestAuthenticator(),
                ceremony: Fixture.registrationCeremony(attestation: AttestationPolicy(allowedFormats: [.packed]))
            )
        },
        Witness(code: .attestationInvalid, test: "PackedSelfAttestationTests/algorithmMismatch") {
            try await register(
                TestAuthenticator(algorithm: .es384),
                attestation: .fidoU2F(try TestCertificateAuthority())
            )
        },
        Witness(code: .attestationCertificateInvalid, test: "PackedCertificateRequirementsTests/organizationalUnit") {
            let authority = try TestCertificateAuthority()
            let key = P256.Signing.PrivateKey()
            let certificate = try authority.issue(for: .init(key.publicKey), isCertificateAuthority: true)
            let response = try Fixture.registration(TestAuthenticator(), format: "packed") { parts in
                CertificateFixture.packedStatement(parts, attestationKey: key, chain: [certificate])
            }
            _ = try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        },
        Witness(code: .attestationUntrusted, test: "TrustEvaluationTests/anotherRoot") {
            try await register(
                TestAuthenticator(),
                ceremony: Fixture.registrationCeremony(attestation: AttestationPolicy(requireTrustedAttestation: true))
            )
        },
        Witness(code: .metadataInvalid, test: "MetadataBLOBTests/wrongRoot") {
            let service = try TestMetadataService()
            _ = try await MetadataFixture.load(
                try service.blob(entries: []),
                from: service,
                roots: [try TestMetadataService().root]
            )
        },
        Witness(code: .metadataStale, test: "MetadataBLOBTests/stale") {
            let service = try TestMetadataService()
            _ = try await MetadataFixture.load(try service.blob(entries: [], nextUpdate: "2025-01-01"), from: service)
        },
        Witness(code: .metadataEntryNotFound, test: "MetadataRegistrationTests/entryRequired") {
            let authority = try TestCertificateAuthority()
            let blob = try await MetadataFixture.blob(for: authority)
            var unlisted = TestAuthenticator()
            unlisted.aaguid = [UInt8](repeating: 0xBB, count: 16)
            try await register(
                unlisted,
                ceremony: Fixture.registrationCeremony(
                    attestation: AttestationPolicy(metadata: MetadataPolicy(blob: blob, requireEntry: true))
                ),
                attestation: .packedCertificate(authority)
            )
        },
        Witness(code: .metadataEntryUnusable, test: "MetadataUnusableEntryTests/duplicateAAGUID") {
            let authority = try TestCertificateAuthority()
            let service = try TestMetadataService()
            let entry = try TestMetadataService.entry(aaguid: MetadataFixture.aaguid, roots: [authority.root])
            let blob = try await MetadataFixture.load(try service.blob(entries: [entry, entry]), from: service)
            try await register(
                TestAuthenticator(),
                ceremony: Fixture.registrationCeremony(
                    attestation: AttestationPolicy(metadata: MetadataPolicy(blob: blob))
                ),
                attestation: .packedCertificate(authority)
            )
        },
        Witness(code: .authenticatorCompromised, test: "MetadataRegistrationTests/compromisedStatus") {
            let authority = try TestCertificateAuthority()
            let blob = try await MetadataFixture.blob(for: authority, statuses: [.userVerificationBypass])
            try await register(
                TestAuthenticator(),
                ceremony: Fixture.registrationCeremony(
                    attestation: AttestationPolicy(metadata: MetadataPolicy(blob: blob))
                ),
                attestation: .packedCertificate(authority)
            )
        },
    ]

    @Test("Each witness raises its code", arguments: witnesses)
    func witnessRaisesCode(_ witness: Witness) async {
        await #expect(throws: code(witness.code), "\(witness.test)") { try await witness.raise() }
    }

    @Test("Every code of WebAuthnError.Code.all has a witness, or is listed as uncovered with a reason")
    func everyCodeIsCovered() {
        let covered = Set(Self.witnesses.map(\.code))
        let missing = WebAuthnError.Code.all.filter { !covered.contains($0) && Self.uncovered[$0] == nil }
        #expect(missing.isEmpty, "codes no test raises: \(missing.map(\.rawValue))")
        // A code listed as uncovered must not also have a witness, and must be a real code.
        #expect(covered.isDisjoint(with: Self.uncovered.keys))
        #expect(Set(Self.uncovered.keys).isSubset(of: WebAuthnError.Code.all))
        #expect(covered.isSubset(of: WebAuthnError.Code.all))
    }
}
