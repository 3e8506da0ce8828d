import CorpusTestSupport
import Foundation
import Testing
import WebAuthn

@testable import PasskeysCommandLine

/// The rendering of `passkeys inspect` on synthetic input (no corpus needed).
@Suite("inspect (synthetic input)")
struct InspectionTests {
    /// Authenticator data with only rpIdHash, flags and counter.
    static func authenticatorData(flags: UInt8, signCount: UInt32) -> [UInt8] {
        [UInt8](repeating: 0xAB, count: 32) + [flags] + withUnsafeBytes(of: signCount.bigEndian, Array.init)
    }

    static let clientData =
        #"{"type":"webauthn.get","challenge":"AAECAw","origin":"https://example.com","crossOrigin":false,"androidPackageName":"com.example"}"#

    @Test func rendersAuthenticatorData() throws {
        let text = try Inspection.render(
            Array(Base64URL.encode(Self.authenticatorData(flags: 0x1D, signCount: 42)).utf8)
        )
        #expect(text.contains("Authenticator data (authenticator data, 37 bytes)"))
        #expect(text.contains(String(repeating: "ab", count: 32)))
        #expect(hasField(text, "flags", "0x1d  UP=1 UV=1 BE=1 BS=1 AT=0 ED=0"))
        #expect(hasField(text, "signCount", "42"))
    }

    @Test func rendersRawBytes() throws {
        let text = try Inspection.render(Self.authenticatorData(flags: 0x01, signCount: 0))
        #expect(text.contains("UP=1 UV=0 BE=0 BS=0 AT=0 ED=0"))
    }

    @Test func flagsReservedBits() {
        #expect(InspectionReport.flags(AuthenticatorDataFlags(rawValue: 0x23)).contains("reserved bits set (0x22)"))
    }

    @Test func rendersClientDataAsJSONOrBase64URL() throws {
        for input in [
            Self.clientData, Base64URL.encode(Array(Self.clientData.utf8)),
            "\"\(Base64URL.encode(Array(Self.clientData.utf8)))\"\n",
        ] {
            let text = try Inspection.render(Array(input.utf8))
            #expect(text.contains("webauthn.get (authentication)"))
            #expect(hasField(text, "origin", "https://example.com"))
            #expect(hasField(text, "challenge", "AAECAw (4 bytes)"))
            #expect(hasField(text, "crossOrigin", "false"))
            #expect(hasField(text, "topOrigin", "(absent)"))
            #expect(hasField(text, "androidPackageName", "\"com.example\""))
        }
    }

    @Test(arguments: [
        ("", "UNRECOGNIZED_INPUT"), ("  \n", "UNRECOGNIZED_INPUT"), ("not base64url!", "INVALID_BASE64URL"),
        ("AAAA", "MALFORMED_AUTHENTICATOR_DATA"), ("{\"a\": 1}", "MALFORMED_JSON"), ("{not json", "MALFORMED_JSON"),
        ("{\"response\": {}}", "MALFORMED_JSON"), ("oWFhAQ", "MALFORMED_ATTESTATION_OBJECT"),
    ])
    func reportsWhatCannotBeDecoded(_ input: String, _ code: String) {
        #expect {
            try Inspection.render(Array(input.utf8))
        } throws: { error in
            (error as? InspectionFailure)?.error.code.rawValue == code
        }
    }

    @Test func keepsWhatWasDecodedBeforeAnError() async {
        let credential = """
            {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "clientExtensionResults": {},
             "response": {"clientDataJSON": "\(Base64URL.encode(Array(Self.clientData.utf8)))", "attestationObject": "oWFhAQ"}}
            """
        let result = await passkeys(["inspect", "-"], stdin: Array(credential.utf8))
        #expect(result.exitCode == 1)
        #expect(result.standardOutput.contains("Registration response"))
        #expect(result.standardOutput.contains("Client data"))
        #expect(result.standardError.hasPrefix("error: MALFORMED_ATTESTATION_OBJECT: "))
    }

    @Test func unreadableFile() async {
        let result = await passkeys(["inspect", "no-such-file.json"])
        #expect(result.exitCode == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("error: FILE_UNREADABLE: "))
    }

    @Test func readsStandardInput() async {
        let result = await passkeys(["inspect", "-"], stdin: Array(Self.clientData.utf8))
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("webauthn.get"))
        #expect(result.standardError.isEmpty)
    }
}

/// `passkeys inspect` on real responses from the conformance corpus.
// Skipped when the conformance corpus (../shared/conformance or $PASSKEYS_CONFORMANCE_DIR) is absent, unless
// PASSKEYS_REQUIRE_CONFORMANCE=1.
@Suite(
    "inspect (conformance corpus)",
    .enabled(if: ConformanceCorpus.shouldRun, Comment(rawValue: ConformanceCorpus.skipReason))
)
struct InspectCorpusTests {
    func inspect(_ input: String) async -> CommandResult {
        await passkeys(["inspect", "-"], stdin: Array(input.utf8))
    }

    @Test func registrationCredential() async throws {
        let testCase = try Corpus.load("004")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = await passkeys(["inspect", try directory.file("registration.json", testCase.responseJSON)])
        #expect(result.exitCode == 0)
        let text = result.standardOutput
        #expect(text.hasPrefix("Registration response"))
        for (label, value) in [
            ("rawId", "same as id (64 bytes)"), ("type", "webauthn.create (registration)"),
            ("origin", "http://localhost:5000"),
            ("challenge", testCase.expected.challenge), ("fmt", "none"), ("attStmt", "{} (empty)"),
            ("flags", "0x45  UP=1 UV=1 BE=0 BS=0 AT=1 ED=0"), ("signCount", "23"),
            ("AAGUID", "00000000-0000-0000-0000-000000000000"),
            ("credential id", "\(testCase.outcome.credentialId ?? "") (64 bytes), same as rawId"),
            ("kty", "EC2 (2)"), ("alg", "ES256 (-7)"), ("crv", "P-256 (1)"), ("key size", "256 bits"),
        ] {
            #expect(hasField(text, label, value), "\(label): \(value)\n\(text)")
        }
    }

    @Test func authenticationCredential() async throws {
        let testCase = try Corpus.load("023")
        let result = await inspect(String(decoding: testCase.responseJSON, as: UTF8.self))
        #expect(result.exitCode == 0)
        let text = result.standardOutput
        #expect(text.hasPrefix("Authentication response"))
        for (label, value) in [
            ("type", "webauthn.get (authentication)"), ("flags", "0x05  UP=1 UV=1"), ("signCount", "1"),
            ("userHandle", testCase.responseMember("userHandle") ?? ""), ("signature", "256 bytes"),
        ] {
            #expect(hasField(text, label, value), "\(label): \(value)\n\(text)")
        }
    }

    @Test func attestationObjectWithCertificates() async throws {
        let testCase = try Corpus.load("097")
        let result = await inspect(testCase.responseMember("attestationObject") ?? "")
        #expect(result.exitCode == 0)
        let text = result.standardOutput
        #expect(text.hasPrefix("Attestation object"))
        for (label, value) in [
            ("fmt", "packed"), ("alg", "ES256 (-7)"), ("sig", "71 bytes"), ("x5c", "1 certificate"),
            ("[0] subject", "C=AA,OU=Authenticator Attestation,O=W3C,CN=WebAuthn test vectors"),
            ("issuer", "C=AA,OU=Authenticator Attestation CA,O=W3C,CN=WebAuthn test vectors"),
            ("validity", "2024-01-01T00:00:00Z to 3024-01-01T00:00:00Z"), ("CA", "no"),
            ("AAGUID", testCase.outcome.aaguid ?? ""), ("flags", "0x4d  UP=1 UV=1 BE=1 BS=0 AT=1 ED=0"),
        ] {
            #expect(hasField(text, label, value), "\(label): \(value)\n\(text)")
        }
    }

    @Test func authenticatorDataAndClientData() async throws {
        let testCase = try Corpus.load("021")
        let authenticatorData = await inspect(testCase.responseMember("authenticatorData") ?? "")
        #expect(authenticatorData.exitCode == 0)
        #expect(hasField(authenticatorData.standardOutput, "flags", "0x01  UP=1 UV=0 BE=0 BS=0 AT=0 ED=0"))
        #expect(hasField(authenticatorData.standardOutput, "signCount", "78"))
        let clientData = await inspect(testCase.responseMember("clientDataJSON") ?? "")
        #expect(clientData.exitCode == 0)
        #expect(hasField(clientData.standardOutput, "challenge", testCase.expected.challenge))
        #expect(hasField(clientData.standardOutput, "hashAlgorithm", "\"SHA-256\""))
    }

    @Test func coseKey() async throws {
        let testCase = try Corpus.load("023")
        let result = await inspect(testCase.expected.credentialPublicKey ?? "")
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasPrefix("COSE public key"))
        for (label, value) in [
            ("kty", "RSA (3)"), ("alg", "RS256 (-257)"), ("key size", "2048 bits"), ("exponent", "65537"),
            ("base64url", testCase.expected.credentialPublicKey ?? ""),
        ] {
            #expect(hasField(result.standardOutput, label, value), "\(label): \(value)\n\(result.standardOutput)")
        }
    }
}
