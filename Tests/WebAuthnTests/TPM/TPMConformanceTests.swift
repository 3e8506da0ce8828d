import CorpusTestSupport
import Testing

@testable import WebAuthn

/// The `tpm` statements of the real-device conformance corpus (Windows Hello on Dell, Lenovo, Surface and
/// ThinkPad TPMs, the FIDO conformance test TPM, the W3C test vector). The corpus is not part of the package:
/// these tests are skipped, saying so, when it is not found.
@Suite(
    "TPM attestation: conformance corpus",
    .enabled(if: ConformanceCorpus.shouldRun, Comment(rawValue: ConformanceCorpus.skipReason))
)
struct TPMConformanceTests {
    @Test("The corpus holds the 17 TPM registration cases, and only 079 is expected to fail")
    func caseList() throws {
        let numbers = TPMConformanceCorpus.tpmCaseNames.map { String($0.prefix(3)) }
        #expect(
            numbers == [
                "014", "015", "016", "017", "034", "035", "072", "073", "074", "075", "076", "077", "078", "079", "102",
                "167", "168",
            ]
        )
        let failing = try TPMConformanceCorpus.tpmCaseNames.filter { try !TPMCorpusCase(named: $0).expectsSuccess }
        #expect(failing.map { String($0.prefix(3)) } == ["079"])
    }

    @Test("Each TPM attestation object decodes as sent", arguments: TPMConformanceCorpus.tpmCaseNames)
    func decodesAsSent(_ name: String) throws {
        let testCase = try TPMCorpusCase(named: name)
        #expect(try AttestationObject(bytes: testCase.rawAttestationObject).format == .tpm)
    }

    @Test("Each TPM case verifies as the corpus records", arguments: TPMConformanceCorpus.tpmCaseNames)
    func verifiesAsRecorded(_ name: String) throws {
        let testCase = try TPMCorpusCase(named: name)
        #expect(testCase.attestationObject.format == .tpm)
        let statement = try testCase.statement(fields: testCase.fieldsForStatementChecks)
        if testCase.expectsSuccess {
            expectTPMAcceptance(statement)
        } else {
            // 079: the AIK certificate's id-fido-gen-ce-aaguid extension names another AAGUID.
            expectTPMRejection(statement, .attestationCertificateInvalid, mentioning: "1.3.6.1.4.1.45724.1.1.4")
        }
    }

    @Test(
        "RS1 statements fail with UNSUPPORTED_ALGORITHM when the policy leaves out RS1",
        arguments: TPMConformanceCorpus.tpmCaseNames
    )
    func rs1FollowsPolicy(_ name: String) throws {
        let testCase = try TPMCorpusCase(named: name)
        guard testCase.attestationObject.statement[text: "alg"]?.intValue == COSEAlgorithmIdentifier.rs1.rawValue else {
            return
        }
        var policy = AttestationPolicy()
        policy.statementAlgorithms.remove(.rs1)
        expectTPMRejection(try testCase.statement(policy: policy), .unsupportedAlgorithm, mentioning: "RS1")
    }

    @Test(
        "Each change to a valid real-device statement is rejected",
        arguments: TPMConformanceCorpus.tpmCaseNames.filter { $0.prefix(3) != "079" },
        TPMMutation.all
    )
    func mutationsAreRejected(_ name: String, _ mutation: TPMMutation) throws {
        let testCase = try TPMCorpusCase(named: name)
        var input = TPMMutation.Input(
            fields: testCase.fieldsForStatementChecks,
            clientDataHash: testCase.clientDataHash
        )
        mutation.apply(&input)
        let statement = try testCase.statement(fields: input.fields, clientDataHash: input.clientDataHash)
        expectTPMRejection(statement, mutation.code, mentioning: mutation.fragment)
    }

    @Test(
        "A statement is rejected for another registration's authenticator data",
        arguments: TPMConformanceCorpus.tpmCaseNames.filter { $0.prefix(3) != "079" }
    )
    func otherAuthenticatorData(_ name: String) throws {
        let testCase = try TPMCorpusCase(named: name)
        // Every case takes the authenticator data of 014 (an RSA key); 014 takes that of 017 (an ECC key).
        let lenderNumber = testCase.number == "014" ? "017" : "014"
        let lender = try TPMCorpusCase(
            named: try #require(TPMConformanceCorpus.tpmCaseNames.first { $0.hasPrefix(lenderNumber) })
        )
        let statement = try AttestationStatement.tpm(
            fields: testCase.fieldsForStatementChecks,
            authenticatorData: lender.attestationObject.authenticatorData,
            clientDataHash: testCase.clientDataHash
        )
        expectTPMRejection(statement, .attestationInvalid, mentioning: "not the credential public key")
    }

    @Test(
        "pubArea and certInfo of every case decode to the documented structures",
        arguments: TPMConformanceCorpus.tpmCaseNames
    )
    func structuresDecode(_ name: String) throws {
        let testCase = try TPMCorpusCase(named: name)
        let fields = testCase.attestationObject.statement
        let pubArea = try TPMTPublic(bytes: fields.tpmBytes("pubArea"))
        let certInfo = try TPMSAttest(bytes: fields.tpmBytes("certInfo"))
        #expect(pubArea.nameAlg == .sha256)
        #expect(certInfo.magic == TPMSAttest.generatedValue)
        #expect(certInfo.type == TPMSAttest.attestCertify)
        #expect(certInfo.attested.name == pubArea.name)
        let alg = COSEAlgorithmIdentifier(rawValue: try #require(fields[text: "alg"]?.intValue))
        #expect(certInfo.extraData.count == (alg == .rs1 ? 20 : 32))
        switch (pubArea.parameters, pubArea.unique) {
        case (.rsa(let rsa), .rsa(let modulus)):
            #expect(pubArea.type == .rsa)
            #expect(rsa.keyBits == 2048 && modulus.count == 256)
            #expect(rsa.effectiveExponent == 65537)
        case (.ecc(let ecc), .ecc(let x, let y)):
            #expect(pubArea.type == .ecc)
            #expect(ecc.curveID == .nistP256 && x.count == 32 && y.count == 32)
        default:
            Issue.record("parameters and unique disagree on the key type")
        }
    }
}
