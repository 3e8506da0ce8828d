import CorpusTestSupport
import Foundation
import WebAuthn

/// Cases of the real-device conformance corpus (``ConformanceCorpus``), as the command's tests use them.
enum Corpus {
    /// The case whose file name starts with `number` (such as "004").
    static func load(_ number: String) throws -> CorpusCase {
        let data = try ConformanceCorpus.data("cases/" + ConformanceCorpus.caseFile(number))
        var testCase = try JSONDecoder().decode(CorpusCase.self, from: data)
        // The response exactly as recorded (numbers stay integers).
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        testCase.responseJSON = try JSONSerialization.data(
            withJSONObject: object?["response"] ?? [:],
            options: [.sortedKeys]
        )
        return testCase
    }
}

/// One case of the corpus (its README documents the shape); only what these tests use.
struct CorpusCase: Decodable {
    let name: String
    let ceremony: String
    let expected: Expected
    let response: JSONValue
    let outcome: Outcome
    var responseJSON = Data()

    struct Expected: Decodable {
        let challenge: String
        let origin: OneOrMany
        let rpId: OneOrMany?
        let credentialPublicKey: String?
        let signCount: UInt32?
        let trustAnchors: [String: [String]]?
    }

    struct Outcome: Decodable {
        let ok: Bool
        let fmt: String?
        let aaguid: String?
        let credentialId: String?
        let signCount: UInt32?
    }

    /// A JSON string or list of strings.
    struct OneOrMany: Decodable {
        let values: [String]
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let single = try? container.decode(String.self) {
                values = [single]
            } else {
                values = try container.decode([String].self)
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case name, ceremony, expected, response, outcome
    }

    /// A member of the response's `response` object (such as `attestationObject`).
    func responseMember(_ name: String) -> String? {
        guard case .object(let credential) = response, case .object(let inner)? = credential["response"],
            case .string(let value)? = inner[name]
        else { return nil }
        return value
    }

    /// `--challenge`, `--origin` (each) and `--rp-id`, as the case expects them.
    var ceremonyArguments: [String] {
        ["--challenge", expected.challenge] + expected.origin.values.flatMap { ["--origin", $0] }
            + ["--rp-id", expected.rpId?.values.first ?? ""]
    }
}
