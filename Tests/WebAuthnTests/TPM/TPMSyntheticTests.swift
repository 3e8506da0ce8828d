import Crypto
import SwiftASN1
import Testing
import X509

@testable import WebAuthn

/// `tpm` statements made in the test: every verification step can be reached in isolation, because the
/// statement can be signed again after a change.
@Suite("TPM attestation: synthetic statements")
struct TPMSyntheticTests {
    @Test("A well-formed statement verifies as AttCA", arguments: TPMSyntheticStatement.CredentialKind.allCases)
    func accepted(_ kind: TPMSyntheticStatement.CredentialKind) throws {
        expectTPMAcceptance(try TPMSyntheticStatement.make(kind).statement())
    }

    @Test(
        "Each change to a valid statement is rejected",
        arguments: TPMSyntheticStatement.CredentialKind.allCases,
        TPMMutation.all
    )
    func mutationsAreRejected(_ kind: TPMSyntheticStatement.CredentialKind, _ mutation: TPMMutation) throws {
        var synthetic = try TPMSyntheticStatement.make(kind)
        var input = TPMMutation.Input(fields: synthetic.fields, clientDataHash: synthetic.clientDataHash)
        mutation.apply(&input)
        synthetic.clientDataHash = input.clientDataHash
        expectTPMRejection(try synthetic.statement(fields: input.fields), mutation.code, mentioning: mutation.fragment)
    }

    // MARK: certInfo checks behind a valid signature

    @Test("A wrong magic is rejected even when the AIK signed it")
    func signedWrongMagic() throws {
        var synthetic = try TPMSyntheticStatement.make()
        synthetic.certInfo = synthetic.certInfo(magic: 0xFF54_4348)
        try synthetic.resign()
        expectTPMRejection(try synthetic.statement(), .attestationInvalid, mentioning: "TPM_GENERATED_VALUE")
    }

    @Test("A certInfo of another type is rejected even when the AIK signed it")
    func signedWrongType() throws {
        var synthetic = try TPMSyntheticStatement.make()
        synthetic.certInfo = synthetic.certInfo(type: 0x8018)
        try synthetic.resign()
        expectTPMRejection(try synthetic.statement(), .attestationInvalid, mentioning: "TPM_ST_ATTEST_CERTIFY")
    }

    @Test("extraData must be the hash of attToBeSigned, even when the AIK signed it")
    func signedWrongExtraData() throws {
        var synthetic = try TPMSyntheticStatement.make()
        synthetic.certInfo = synthetic.certInfo(extraData: Array(SHA256.hash(data: synthetic.authenticatorData)))
        try synthetic.resign()
        expectTPMRejection(try synthetic.statement(), .attestationInvalid, mentioning: "extraData")
    }

    @Test("extraData hashed with another algorithm than alg's is rejected")
    func extraDataWithAnotherHash() throws {
        var synthetic = try TPMSyntheticStatement.make()
        synthetic.certInfo = synthetic.certInfo(
            extraData: Array(SHA384.hash(data: synthetic.authenticatorData + synthetic.clientDataHash))
        )
        try synthetic.resign()
        expectTPMRejection(try synthetic.statement(), .attestationInvalid, mentioning: "extraData")
    }

    @Test("extraData follows alg: ES384 means SHA-384")
    func extraDataFollowsAlgorithm() throws {
        var synthetic = try TPMSyntheticStatement.make()
        synthetic.alg = .es384
        synthetic.certInfo = synthetic.certInfo(
            extraData: Array(SHA384.hash(data: synthetic.authenticatorData + synthetic.clientDataHash))
        )
        synthetic.sig = Array(
            try synthetic.aikKey.signature(for: SHA384.hash(data: synthetic.certInfo)).derRepresentation
        )
        expectTPMAcceptance(try synthetic.statement())
    }

    @Test("The attested name must be the Name of pubArea, even when the AIK signed it")
    func signedWrongName() throws {
        var synthetic = try TPMSyntheticStatement.make()
        // The SHA-1 Name of pubArea, while pubArea's nameAlg is SHA-256.
        synthetic.certInfo = synthetic.certInfo(
            name: TPMMarshal.u16(0x0004) + Array(Insecure.SHA1.hash(data: synthetic.pubArea))
        )
        try synthetic.resign()
        expectTPMRejection(try synthetic.statement(), .attestationInvalid, mentioning: "attested name")
    }

    @Test("alg must suit the AIK's key type")
    func algorithmDoesNotSuitKey() throws {
        var synthetic = try TPMSyntheticStatement.make()
        synthetic.alg = .rs256
        expectTPMRejection(try synthetic.statement(), .attestationInvalid, mentioning: "different kind of key")
    }

    @Test("An RSA exponent written out as 65537 matches like the default exponent 0")
    func explicitExponent() throws {
        var synthetic = try TPMSyntheticStatement.make(.rsa2048)
        // The exponent sits just before the 2-byte modulus size and the 256-byte modulus.
        let exponentOffset = synthetic.pubArea.count - 256 - 2 - 4
        synthetic.pubArea.replaceSubrange(exponentOffset..<exponentOffset + 4, with: TPMMarshal.u32(65537))
        synthetic.certInfo = synthetic.certInfo()
        try synthetic.resign()
        expectTPMAcceptance(try synthetic.statement())
        // Another exponent is another key.
        synthetic.pubArea.replaceSubrange(exponentOffset..<exponentOffset + 4, with: TPMMarshal.u32(3))
        synthetic.certInfo = synthetic.certInfo()
        try synthetic.resign()
        expectTPMRejection(try synthetic.statement(), .attestationInvalid, mentioning: "exponent")
    }

    @Test("An ECC key on another curve than the credential's is rejected")
    func otherCurve() throws {
        var synthetic = try TPMSyntheticStatement.make(.ecP256)
        // curveID follows type, nameAlg, objectAttributes, authPolicy (2 + 32), symmetric (2) and scheme (4).
        let curveOffset = 2 + 2 + 4 + 34 + 2 + 4
        #expect(Array(synthetic.pubArea[curveOffset..<curveOffset + 2]) == [0x00, 0x03])
        synthetic.pubArea[curveOffset + 1] = 0x04
        synthetic.certInfo = synthetic.certInfo()
        try synthetic.resign()
        expectTPMRejection(try synthetic.statement(), .attestationInvalid, mentioning: "TPM_ECC_NIST_P384")
    }

    @Test("An RSA modulus whose size disagrees with keyBits is rejected")
    func keyBitsMismatch() throws {
        var synthetic = try TPMSyntheticStatement.make(.rsa2048)
        let keyBitsOffset = synthetic.pubArea.count - 256 - 2 - 4 - 2
        synthetic.pubArea.replaceSubrange(keyBitsOffset..<keyBitsOffset + 2, with: TPMMarshal.u16(3072))
        synthetic.certInfo = synthetic.certInfo()
        try synthetic.resign()
        expectTPMRejection(try synthetic.statement(), .attestationInvalid, mentioning: "keyBits")
    }

    // MARK: §8.3.1 AIK certificate requirements

    @Test("The TPM attributes may be one multi-valued RDN or three RDNs, in any order")
    func attributeLayouts() throws {
        var options = TPMAIKCertificateOptions()
        options.tpmAttributes = DistinguishedName([
            RelativeDistinguishedName(.init(type: TPMAIKCertificateOptions.version, utf8String: "id:00010102")),
            RelativeDistinguishedName(.init(type: TPMAIKCertificateOptions.manufacturer, utf8String: "id:53544D20")),
            RelativeDistinguishedName(.init(type: TPMAIKCertificateOptions.model, utf8String: "ST33HTPHAHD8")),
        ])
        expectTPMAcceptance(try TPMSyntheticStatement.make(certificate: options).statement())
    }

    @Test("A non-critical subject alternative name is accepted")
    func nonCriticalSAN() throws {
        var options = TPMAIKCertificateOptions()
        options.sanCritical = false
        expectTPMAcceptance(try TPMSyntheticStatement.make(certificate: options).statement())
    }

    @Test("Every known manufacturer id is accepted", arguments: TPMManufacturer.known.map(\.id))
    func knownManufacturers(_ id: String) throws {
        var options = TPMAIKCertificateOptions()
        options.tpmAttributes = TPMAIKCertificateOptions.attributes(manufacturer: id)
        expectTPMAcceptance(try TPMSyntheticStatement.make(certificate: options).statement())
    }

    struct CertificateCase: Sendable, CustomTestStringConvertible {
        let name: String
        let fragment: String
        let change: @Sendable (inout TPMAIKCertificateOptions) -> Void
        var testDescription: String { name }
    }

    static let certificateCases: [CertificateCase] = [
        CertificateCase(name: "a non-empty subject", fragment: "subject must be empty") {
            $0.subject = DistinguishedName([
                RelativeDistinguishedName(.init(type: .RDNAttributeType.commonName, utf8String: "AIK"))
            ])
        },
        CertificateCase(name: "X.509 version 1", fragment: "must be X.509 version 3") { $0.version = .v1 },
        CertificateCase(name: "no subject alternative name", fragment: "no subject alternative name") {
            $0.tpmAttributes = nil
        },
        CertificateCase(name: "a directoryName without TPM attributes", fragment: "manufacturer") {
            $0.tpmAttributes = DistinguishedName([
                RelativeDistinguishedName(.init(type: .RDNAttributeType.commonName, utf8String: "TPM"))
            ])
        },
        CertificateCase(name: "no TPM model", fragment: "model") {
            $0.tpmAttributes = DistinguishedName([
                RelativeDistinguishedName(
                    .init(type: TPMAIKCertificateOptions.manufacturer, utf8String: "id:4E544300")
                ),
                RelativeDistinguishedName(.init(type: TPMAIKCertificateOptions.version, utf8String: "id:13")),
            ])
        },
        CertificateCase(name: "no TPM version", fragment: "version") {
            $0.tpmAttributes = DistinguishedName([
                RelativeDistinguishedName(
                    .init(type: TPMAIKCertificateOptions.manufacturer, utf8String: "id:4E544300")
                ),
                RelativeDistinguishedName(.init(type: TPMAIKCertificateOptions.model, utf8String: "NPCT75x")),
            ])
        },
        CertificateCase(name: "the manufacturer twice", fragment: "exactly once") {
            $0.tpmAttributes = DistinguishedName(
                Array(TPMAIKCertificateOptions.attributes(manufacturer: "id:4E544300"))
                    + [
                        RelativeDistinguishedName(
                            .init(type: TPMAIKCertificateOptions.manufacturer, utf8String: "id:49465800")
                        )
                    ]
            )
        },
        CertificateCase(name: "an empty model", fragment: "non-empty string") {
            $0.tpmAttributes = TPMAIKCertificateOptions.attributes(manufacturer: "id:4E544300", model: "")
        },
        CertificateCase(name: "an unregistered manufacturer", fragment: "not a TCG-registered vendor") {
            $0.tpmAttributes = TPMAIKCertificateOptions.attributes(manufacturer: "id:12345678")
        },
        CertificateCase(name: "a manufacturer id in lower case", fragment: "not a TCG-registered vendor") {
            $0.tpmAttributes = TPMAIKCertificateOptions.attributes(manufacturer: "id:fffff1d0")
        },
        CertificateCase(name: "a manufacturer without the id: prefix", fragment: "not a TCG-registered vendor") {
            $0.tpmAttributes = TPMAIKCertificateOptions.attributes(manufacturer: "4E544300")
        },
        CertificateCase(name: "no extended key usage", fragment: "tcg-kp-AIKCertificate") {
            $0.extendedKeyUsages = nil
        },
        CertificateCase(name: "an extended key usage without tcg-kp-AIKCertificate", fragment: "tcg-kp-AIKCertificate")
        {
            $0.extendedKeyUsages = [[1, 3, 6, 1, 5, 5, 7, 3, 2]]
        },
        CertificateCase(name: "basic constraints CA true", fragment: "not a CA") {
            $0.basicConstraints = .isCertificateAuthority(maxPathLength: nil)
        },
        CertificateCase(name: "no basic constraints", fragment: "not a CA") { $0.basicConstraints = nil },
        CertificateCase(
            name: "an id-fido-gen-ce-aaguid extension naming another AAGUID",
            fragment: "1.3.6.1.4.1.45724.1.1.4"
        ) {
            $0.aaguidExtension = [UInt8](repeating: 0x43, count: 16)
        },
    ]

    @Test(
        "An AIK certificate that breaks §8.3.1 is rejected with ATTESTATION_CERTIFICATE_INVALID",
        arguments: certificateCases
    )
    func certificateRequirements(_ certificateCase: CertificateCase) throws {
        var options = TPMAIKCertificateOptions()
        certificateCase.change(&options)
        let synthetic: TPMSyntheticStatement
        do {
            synthetic = try TPMSyntheticStatement.make(certificate: options)
        } catch {
            Issue.record("could not build the certificate: \(error)")
            return
        }
        expectTPMRejection(
            try synthetic.statement(),
            .attestationCertificateInvalid,
            mentioning: certificateCase.fragment
        )
    }

    @Test("An id-fido-gen-ce-aaguid extension naming the authenticator's AAGUID is accepted")
    func matchingAAGUIDExtension() throws {
        let aaguid = [UInt8](repeating: 0x42, count: 16)
        var options = TPMAIKCertificateOptions()
        options.aaguidExtension = aaguid
        expectTPMAcceptance(try TPMSyntheticStatement.make(certificate: options, aaguid: aaguid).statement())
    }
}
