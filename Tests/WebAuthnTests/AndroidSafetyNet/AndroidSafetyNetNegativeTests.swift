import Crypto
import CryptoExtras
import Foundation
import Testing

@testable import WebAuthn

/// android-safetynet attestation (§8.5) with synthetic responses: one check broken at a time.
struct AndroidSafetyNetNegativeTests {
    typealias Fixture = AndroidSafetyNetFixture

    @Test func acceptsES256Response() throws {
        let result = try AndroidSafetyNetAttestation.verify(Fixture().build().statement)
        #expect(result.type == .basic)
        #expect(result.trustPath.count == 1)
    }

    @Test func acceptsRS256Response() throws {
        var fixture = Fixture()
        fixture.signingKey = .rs256(try _RSA.Signing.PrivateKey(keySize: .bits2048))
        _ = try AndroidSafetyNetAttestation.verify(fixture.build().statement)
    }

    @Test func acceptsHostnameInCommonNameOrAlternativeName() throws {
        var commonNameOnly = Fixture()
        commonNameOnly.dnsNames = []
        _ = try AndroidSafetyNetAttestation.verify(commonNameOnly.build().statement)

        var alternativeNameOnly = Fixture()
        alternativeNameOnly.commonName = "Google LLC"
        alternativeNameOnly.dnsNames = ["example.com", "ATTEST.android.com"]
        _ = try AndroidSafetyNetAttestation.verify(alternativeNameOnly.build().statement)
    }

    @Test(arguments: [
        ("attest.android.com.evil.example", ["evil.example"]),
        ("evil.example", ["attest.android.co", "x.attest.android.com"]),
    ])
    func rejectsWrongHostname(_ commonName: String, dnsNames: [String]) throws {
        var fixture = Fixture()
        fixture.commonName = commonName
        fixture.dnsNames = dnsNames
        let error = try fixture.verifyError()
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.reason.contains("attest.android.com") == true)
    }

    @Test func rejectsBadSignature() throws {
        let error = try Fixture().verifyError { jws in
            var parts = jws.split(separator: ".").map(String.init)
            var signature = try! Base64URL.decode(parts[2])
            signature[5] ^= 0x01
            parts[2] = Base64URL.encode(signature)
            return parts.joined(separator: ".")
        }
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("signature") == true)
    }

    @Test func rejectsES256SignatureOfWrongLength() throws {
        let error = try Fixture().verifyError { $0 + "AAAA" }
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("r || s") == true)
    }

    @Test func rejectsSignatureFromAnotherKey() throws {
        // The header names a certificate whose key did not sign.
        let other = try Fixture().build().jws.split(separator: ".")
        let error = try Fixture().verifyError { jws in
            let parts = jws.split(separator: ".")
            return [parts[0], parts[1], other[2]].joined(separator: ".")
        }
        #expect(error?.code == .attestationInvalid)
    }

    @Test(arguments: ["none", "HS256", "PS256", "ES384", ""])
    func rejectsUnsupportedAlgorithm(_ algorithm: String) throws {
        var fixture = Fixture()
        fixture.algorithm = algorithm
        #expect(try fixture.verifyError()?.code == .unsupportedAlgorithm)
    }

    @Test func rejectsAlgorithmThatDoesNotMatchTheKey() throws {
        var fixture = Fixture()
        fixture.algorithm = "RS256"
        let error = try fixture.verifyError()
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("different kind of key") == true)
    }

    @Test func rejectsAlgorithmPolicyExcludes() throws {
        var fixture = Fixture()
        fixture.policy.statementAlgorithms.remove(.es256)
        #expect(try fixture.verifyError()?.code == .unsupportedAlgorithm)
    }

    @Test func rejectsWrongNonce() throws {
        var fixture = Fixture()
        fixture.nonce = Data(repeating: 0, count: 32).base64EncodedString()
        let error = try fixture.verifyError()
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("nonce") == true)
    }

    @Test func rejectsNonceInBase64URL() throws {
        // The right digest in the wrong alphabet: the nonce must be standard base64.
        var fixture = Fixture()
        let built = try fixture.build()
        let digest = Array(SHA256.hash(data: built.statement.signedData))
        fixture.nonce = Base64URL.encode(digest)
        if fixture.nonce == Data(digest).base64EncodedString() { return }  // no '+', '/' or '=' to tell them apart
        #expect(try fixture.verifyError()?.code == .attestationInvalid)
    }

    @Test(arguments: [false, nil] as [Bool?])
    func rejectsMissingCTSProfileMatch(_ cts: Bool?) throws {
        var fixture = Fixture()
        fixture.ctsProfileMatch = cts
        let error = try fixture.verifyError()
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("ctsProfileMatch") == true)

        fixture.policy.safetyNetRequiresCTSProfileMatch = false
        #expect(try fixture.verifyError() == nil)
    }

    @Test func rejectsStaleTimestamp() throws {
        var fixture = Fixture()
        fixture.timestamp = AndroidTestFixtures.now - 61
        let error = try fixture.verifyError()
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("old") == true)

        fixture.timestamp = AndroidTestFixtures.now - 59
        #expect(try fixture.verifyError() == nil)
        fixture.policy.safetyNetMaximumAge = 30
        #expect(try fixture.verifyError()?.code == .attestationInvalid)
    }

    @Test func rejectsFutureTimestampBeyondSkew() throws {
        var fixture = Fixture()
        fixture.timestamp = AndroidTestFixtures.now + 61
        let error = try fixture.verifyError()
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("clock skew") == true)

        fixture.timestamp = AndroidTestFixtures.now + 59
        #expect(try fixture.verifyError() == nil)
    }

    @Test(arguments: [Int64.min, -1, 0, Int64.max])
    func rejectsExtremeTimestamps(_ timestampMs: Int64) throws {
        var fixture = Fixture()
        fixture.timestampMs = timestampMs
        #expect(try fixture.verifyError()?.code == .attestationInvalid)
        fixture.policy.safetyNetMaximumAge = .infinity
        #expect(try fixture.verifyError()?.code == (timestampMs == .max ? .attestationInvalid : nil))
        fixture.policy.safetyNetClockSkew = .nan  // a nonsense policy fails closed
        #expect(try fixture.verifyError()?.code == .attestationInvalid)
    }

    @Test(arguments: [nil, .text(""), CBORValue(1)] as [CBORValue?])
    func rejectsMissingVersion(_ ver: CBORValue?) throws {
        var fixture = Fixture()
        fixture.ver = ver
        #expect(try fixture.verifyError()?.code == .attestationInvalid)
    }

    @Test func rejectsExtraMember() throws {
        let statement = try Fixture().build().statement
        let fields = CBORValue.map((statement.fields.mapEntries ?? []) + [CBORMapEntry(.text("x5c"), .array([]))])
        let extra = AttestationStatement(
            format: .androidSafetyNet,
            fields: fields,
            authenticatorData: statement.authenticatorData,
            credential: statement.credential,
            clientDataHash: statement.clientDataHash,
            policy: statement.policy,
            time: statement.time
        )
        #expect(
            AndroidTestFixtures.error { _ = try AndroidSafetyNetAttestation.verify(extra) }?.code == .attestationInvalid
        )
    }

    @Test func rejectsCriticalHeader() throws {
        var fixture = Fixture()
        fixture.extraHeader = ["crit": ["exp"], "exp": 1]
        let error = try fixture.verifyError()
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("crit") == true)
    }

    @Test func rejectsCertificateThatIsNotDER() throws {
        var fixture = Fixture()
        fixture.extraHeader = ["x5c": [Data([0x30, 0x03, 0x02, 0x01, 0x01]).base64EncodedString()]]
        #expect(try fixture.verifyError()?.code == .attestationCertificateInvalid)
    }

    /// Malformed compact serializations, each rejected as ATTESTATION_INVALID before any signature check.
    @Test(arguments: AndroidSafetyNetParserTests.malformedResponses)
    func rejectsMalformedJWS(_ malformed: AndroidSafetyNetParserTests.Malformed) throws {
        let error = try Fixture().verifyError(mutateJWS: malformed.mutate)
        #expect(error?.code == .attestationInvalid)
        #expect(error?.reason.contains("compact JWS") == true)
    }
}
