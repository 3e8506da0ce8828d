import Crypto
import Foundation
import Testing
import X509

@testable import WebAuthn

/// android-key attestation (§8.4) with synthetic statements: one check broken at a time.
struct AndroidKeyNegativeTests {
    typealias F = AndroidTestFixtures

    /// A statement whose attestation certificate carries `keyDescription` (none when nil) and whose
    /// signature is made with the certificate's key over `signedClientDataHash`.
    static func statement(
        keyDescription: [UInt8]?,
        certificateKey: P256.Signing.PrivateKey? = nil,
        signedClientDataHash: [UInt8] = F.clientDataHash,
        fields extra: [String: CBORValue] = [:]
    ) throws -> AttestationStatement {
        let credentialKey = P256.Signing.PrivateKey()
        let attestedKey = certificateKey ?? credentialKey
        let extensions =
            keyDescription.map {
                [Certificate.Extension(oid: AndroidKeyDescription.extensionID, critical: false, value: $0[...])]
            } ?? []
        let certificate = try F.certificate(
            commonName: "Android Keystore Key",
            publicKey: Certificate.PublicKey(attestedKey.publicKey),
            signedBy: Certificate.PrivateKey(P256.Signing.PrivateKey()),
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions
        )
        let authenticatorData = try F.authenticatorData(credentialKey: credentialKey.publicKey)
        let signature = try attestedKey.signature(for: authenticatorData.rawRepresentation + signedClientDataHash)
        var fields: [String: CBORValue] = [
            "alg": CBORValue(-7),
            "sig": .bytes(Array(signature.derRepresentation)),
            "x5c": .array([.bytes(try F.der(certificate))]),
        ]
        fields.merge(extra) { $1 }
        return F.statement(format: .androidKey, fields: fields, authenticatorData: authenticatorData)
    }

    static func verifyError(_ statement: AttestationStatement) -> WebAuthnError? {
        F.error { _ = try AndroidKeyAttestation.verify(statement) }
    }

    static func description(software: [[UInt8]] = [], tee: [[UInt8]] = F.generatedSigningKey) -> [UInt8] {
        F.keyDescription(challenge: F.clientDataHash, softwareEnforced: software, teeEnforced: tee)
    }

    @Test func acceptsWellFormedStatement() throws {
        let result = try AndroidKeyAttestation.verify(Self.statement(keyDescription: Self.description()))
        #expect(result.type == .basic)
        #expect(result.trustPath.count == 1)
    }

    @Test func skipsUnknownAndUnorderedEntries() throws {
        let tee = [
            F.explicit(702, F.integer(0)),  // origin before purpose: out of schema order
            F.explicit(10, F.integer(1)),  // ecCurve
            F.explicit(704, F.sequence([F.octetString([1, 2]), F.tlv(0x01, [0xFF]), F.enumerated(0)])),  // rootOfTrust
            F.explicit(1, F.set([F.integer(3), F.integer(2)])),  // purpose {VERIFY, SIGN}
            F.explicit(9999, F.octetString([0xAB])),  // a tag this library does not know
        ]
        let software = [F.explicit(709, F.octetString(Array(repeating: 0x30, count: 300))), F.explicit(503, F.null)]
        _ = try AndroidKeyAttestation.verify(
            Self.statement(keyDescription: Self.description(software: software, tee: tee))
        )
    }

    @Test func rejectsMutatedSignature() throws {
        var statement = try Self.statement(keyDescription: Self.description())
        var sig = try #require(statement.fields[text: "sig"]?.bytesValue)
        sig[sig.count - 1] ^= 0x80
        statement = AttestationStatement(
            format: .androidKey,
            fields: AndroidKeyCorpusTests.replacing("sig", with: .bytes(sig), in: statement.fields),
            authenticatorData: statement.authenticatorData,
            credential: statement.credential,
            clientDataHash: statement.clientDataHash,
            policy: statement.policy,
            time: statement.time
        )
        let error = Self.verifyError(statement)
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("signature") == true)
    }

    @Test func rejectsSignatureOverOtherClientData() throws {
        let statement = try Self.statement(
            keyDescription: Self.description(),
            signedClientDataHash: [UInt8](repeating: 1, count: 32)
        )
        #expect(Self.verifyError(statement)?.code == .attestationInvalid)
    }

    @Test func rejectsCertificateKeyThatIsNotTheCredentialKey() throws {
        let statement = try Self.statement(
            keyDescription: Self.description(),
            certificateKey: P256.Signing.PrivateKey()
        )
        let error = Self.verifyError(statement)
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("credential public key") == true)
    }

    @Test func rejectsWrongChallenge() throws {
        let description = F.keyDescription(challenge: [UInt8](repeating: 0, count: 32))
        let error = Self.verifyError(try Self.statement(keyDescription: description))
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("attestationChallenge") == true)
    }

    @Test(arguments: [true, false])
    func rejectsAllApplications(inTEE: Bool) throws {
        let allApplications = F.explicit(600, F.null)
        let description =
            inTEE
            ? Self.description(tee: F.generatedSigningKey + [allApplications])
            : Self.description(software: [allApplications])
        let error = Self.verifyError(try Self.statement(keyDescription: description))
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("allApplications") == true)
    }

    /// origin: 1 derived, 2 imported, 3 unknown; or absent from teeEnforced (even if softwareEnforced has it).
    @Test(arguments: [
        [F.explicit(702, F.integer(1))], [F.explicit(702, F.integer(2))], [F.explicit(702, F.integer(3))], [],
    ])
    func rejectsOriginOtherThanGenerated(_ originEntry: [[UInt8]]) throws {
        let tee = [F.explicit(1, F.set([F.integer(2)]))] + originEntry
        let description = Self.description(software: [F.explicit(702, F.integer(0))], tee: tee)
        let error = Self.verifyError(try Self.statement(keyDescription: description))
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("origin") == true)
    }

    /// purpose: {VERIFY}, {ENCRYPT, DECRYPT}, the empty set, or absent from teeEnforced.
    @Test(arguments: [
        [F.explicit(1, F.set([F.integer(3)]))], [F.explicit(1, F.set([F.integer(0), F.integer(1)]))],
        [F.explicit(1, F.set([]))], [],
    ])
    func rejectsPurposeWithoutSign(_ purposeEntry: [[UInt8]]) throws {
        let tee = purposeEntry + [F.explicit(702, F.integer(0))]
        let description = Self.description(software: [F.explicit(1, F.set([F.integer(2)]))], tee: tee)
        let error = Self.verifyError(try Self.statement(keyDescription: description))
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("purpose") == true)
    }

    @Test func rejectsMissingExtension() throws {
        let error = Self.verifyError(try Self.statement(keyDescription: nil))
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.reason.contains("no key attestation extension") == true)
    }

    /// Structurally wrong key descriptions fail as ATTESTATION_CERTIFICATE_INVALID.
    @Test(arguments: AndroidKeyDescriptionParserTests.malformedDescriptions)
    func rejectsMalformedKeyDescription(_ malformed: AndroidKeyDescriptionParserTests.Malformed) throws {
        let error = Self.verifyError(try Self.statement(keyDescription: malformed.bytes))
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.reason.contains("malformed") == true)
    }

    @Test func rejectsMissingOrExtraMembers() throws {
        let extra = try Self.statement(keyDescription: Self.description(), fields: ["ver": .text("1")])
        #expect(Self.verifyError(extra)?.code == .attestationInvalid)

        let valid = try Self.statement(keyDescription: Self.description())
        for member in ["alg", "sig", "x5c"] {
            let fields = CBORValue.map((valid.fields.mapEntries ?? []).filter { $0.key != .text(member) })
            let statement = AttestationStatement(
                format: .androidKey,
                fields: fields,
                authenticatorData: valid.authenticatorData,
                credential: valid.credential,
                clientDataHash: valid.clientDataHash,
                policy: valid.policy,
                time: valid.time
            )
            #expect(Self.verifyError(statement)?.code == .attestationInvalid, "without \(member)")
        }
    }

    @Test func rejectsAlgorithmTheKeyCannotMake() throws {
        let statement = try Self.statement(keyDescription: Self.description(), fields: ["alg": CBORValue(-257)])
        let error = Self.verifyError(statement)
        #expect(error?.code == .attestationInvalid)
    }
}
