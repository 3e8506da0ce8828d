import Crypto
import PasskeyTesting
import SwiftASN1
import Testing
import X509

@testable import WebAuthn

/// §8.8 `apple` anonymous attestation: a credential certificate whose nonce extension binds the registration.
struct AppleAttestationTests {
    static let nonceOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 2]

    /// The nonce extension value: `SEQUENCE { [1] EXPLICIT OCTET STRING nonce }`.
    static func nonceExtension(_ nonce: [UInt8]) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { sequence in
            try sequence.serialize(
                ASN1OctetString(contentBytes: nonce[...]),
                explicitlyTaggedWithTagNumber: 1,
                tagClass: .contextSpecific
            )
        }
        return Certificate.Extension(oid: nonceOID, critical: false, value: serializer.serializedBytes[...])
    }

    enum Defect: String, CaseIterable, Sendable {
        case none, wrongNonce, otherKey, missingExtension, extensionNotASequence, wrongTag, noX5C
    }

    /// An apple registration for a P-256 credential, with the credential certificate issued by `authority`.
    static func response(
        _ authenticator: TestAuthenticator,
        authority: TestCertificateAuthority,
        defect: Defect = .none
    ) throws -> RegistrationResponseJSON {
        guard case .p256(let credentialKey) = authenticator.key else {
            throw FixtureError(description: "apple needs a P-256 credential")
        }
        return try Fixture.registration(authenticator, format: "apple") { parts in
            var nonce = Array(SHA256.hash(data: parts.authenticatorData + parts.clientDataHash))
            if defect == .wrongNonce { nonce = Array(SHA256.hash(data: parts.authenticatorData)) }
            var extensions: [Certificate.Extension] = []
            switch defect {
            case .missingExtension: break
            case .extensionNotASequence:
                var serializer = DER.Serializer()
                try serializer.serialize(ASN1OctetString(contentBytes: nonce[...]))
                extensions = [
                    Certificate.Extension(oid: nonceOID, critical: false, value: serializer.serializedBytes[...])
                ]
            case .wrongTag:
                var serializer = DER.Serializer()
                try serializer.appendConstructedNode(identifier: .sequence) { sequence in
                    try sequence.serialize(
                        ASN1OctetString(contentBytes: nonce[...]),
                        explicitlyTaggedWithTagNumber: 2,
                        tagClass: .contextSpecific
                    )
                }
                extensions = [
                    Certificate.Extension(oid: nonceOID, critical: false, value: serializer.serializedBytes[...])
                ]
            default: extensions = [try nonceExtension(nonce)]
            }
            let subjectKey: Certificate.PublicKey =
                defect == .otherKey ? .init(P256.Signing.PrivateKey().publicKey) : .init(credentialKey.publicKey)
            let credentialCertificate = try authority.issue(for: subjectKey, extraExtensions: extensions)
            var statement = [CBORMapEntry(.text("alg"), CBORValue(-7))]
            if defect != .noX5C {
                statement.append(
                    CBORMapEntry(
                        .text("x5c"),
                        .array([.bytes(credentialCertificate.derBytes), .bytes(authority.root.derBytes)])
                    )
                )
            }
            return .map(statement)
        }
    }

    @Test("§8.8: a credential certificate with the right nonce and key verifies as anonymization CA attestation")
    func verifies() async throws {
        let authority = try TestCertificateAuthority()
        let response = try Self.response(TestAuthenticator(), authority: authority)
        let registration = try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        #expect(registration.attestation.format == .apple)
        #expect(registration.attestation.type == .anonCA)
        #expect(registration.attestation.trustPath.count == 2)
        #expect(!registration.attestation.trusted)
        let anchored = Fixture.registrationCeremony(
            attestation: AttestationPolicy(trustAnchors: [.apple: [authority.root]])
        )
        #expect(try await anchored.verify(response, at: Fixture.now).attestation.trusted)
    }

    @Test(
        "§8.8 steps 2–4, 5: a wrong nonce, another key or no x5c is ATTESTATION_INVALID",
        arguments: [Defect.wrongNonce, .otherKey, .noX5C]
    )
    func invalid(_ defect: Defect) async throws {
        let response = try Self.response(TestAuthenticator(), authority: try TestCertificateAuthority(), defect: defect)
        await #expect(throws: code(.attestationInvalid)) {
            try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        }
    }

    @Test(
        "§8.8 step 4: a missing or malformed nonce extension is ATTESTATION_CERTIFICATE_INVALID",
        arguments: [Defect.missingExtension, .extensionNotASequence, .wrongTag]
    )
    func certificateInvalid(_ defect: Defect) async throws {
        let response = try Self.response(TestAuthenticator(), authority: try TestCertificateAuthority(), defect: defect)
        await #expect(throws: code(.attestationCertificateInvalid)) {
            try await Fixture.registrationCeremony().verify(response, at: Fixture.now)
        }
    }

    @Test("§8.8: the nonce binds the client data: a statement replayed with other client data is ATTESTATION_INVALID")
    func replayedStatement() async throws {
        let authority = try TestCertificateAuthority()
        let authenticator = TestAuthenticator()
        let original = try Self.response(authenticator, authority: authority)
        // Same authenticator data and statement, client data for another ceremony with the same challenge.
        var replayed = original
        var builder = ClientDataBuilder(type: "webauthn.create", challenge: Fixture.challenge, origin: Fixture.origin)
        builder.extraMembers = [#""other":"ceremony""#]
        replayed.response.clientDataJSON = Base64URLBytes(builder.build())
        await #expect(throws: code(.attestationInvalid)) {
            try await Fixture.registrationCeremony().verify(replayed, at: Fixture.now)
        }
    }
}
