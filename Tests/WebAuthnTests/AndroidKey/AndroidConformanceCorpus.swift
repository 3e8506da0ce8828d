import CorpusTestSupport
import Crypto
import Foundation
import SwiftASN1
import X509

@testable import WebAuthn

/// The Android cases of the real-device conformance corpus (``ConformanceCorpus``), decoded for the Android tests.
enum AndroidConformanceCorpus {
    struct Case {
        let fileName: String
        let attestationObject: [UInt8]
        let clientDataJSON: [UInt8]
        let verifyAt: Date?
        let safetyNetEnforceCTSCheck: Bool?
        /// Paths under `roots/` per format, when the source test named them.
        let trustAnchors: [String: [String]]?
        let expectedOK: Bool
        let skip: String?

        var clientDataHash: [UInt8] { Array(SHA256.hash(data: clientDataJSON)) }

        /// The statement an attestation verifier receives for this case.
        func statement(
            policy: AttestationPolicy = AttestationPolicy(),
            time: Date? = nil
        ) throws -> AttestationStatement {
            let object = try AttestationObject(bytes: attestationObject)
            let authenticatorData = object.authenticatorData
            guard let credential = authenticatorData.attestedCredentialData else {
                throw CorpusError("case \(fileName) has no attested credential data")
            }
            return AttestationStatement(
                format: object.format,
                fields: object.statement,
                authenticatorData: authenticatorData,
                credential: credential,
                clientDataHash: clientDataHash,
                policy: policy,
                time: time ?? verifyAt ?? Date()
            )
        }
    }

    struct CorpusError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The case whose file name starts with `number` (for example `"066"`).
    static func load(_ number: String) throws -> Case {
        let name = try ConformanceCorpus.caseFile(number)
        let data = try ConformanceCorpus.data("cases/" + name)
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let response = (json["response"] as? [String: Any])?["response"] as? [String: Any],
            let attestationObject = response["attestationObject"] as? String,
            let clientDataJSON = response["clientDataJSON"] as? String,
            let expected = json["expected"] as? [String: Any],
            let outcome = json["outcome"] as? [String: Any],
            let ok = outcome["ok"] as? Bool
        else { throw CorpusError("case \(name) does not have the documented shape") }
        var verifyAt: Date?
        if let text = expected["verifyAt"] as? String {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions =
                text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
            guard let date = formatter.date(from: text) else {
                throw CorpusError("case \(name) has an unreadable verifyAt \(text)")
            }
            verifyAt = date
        }
        return Case(
            fileName: name,
            attestationObject: try Base64URL.decode(attestationObject),
            clientDataJSON: try Base64URL.decode(clientDataJSON),
            verifyAt: verifyAt,
            safetyNetEnforceCTSCheck: expected["safetyNetEnforceCTSCheck"] as? Bool,
            trustAnchors: expected["trustAnchors"] as? [String: [String]],
            expectedOK: ok,
            skip: json["skip"] as? String
        )
    }

    /// A PEM certificate from `roots/`.
    static func root(_ path: String) throws -> Certificate {
        try Certificate(pemEncoded: String(decoding: ConformanceCorpus.data(path), as: UTF8.self))
    }
}
