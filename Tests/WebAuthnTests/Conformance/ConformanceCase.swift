import CorpusTestSupport
import Foundation
import WebAuthn

/// One case of the conformance corpus (its README documents the shape).
struct ConformanceCase: Decodable {
    let name: String
    let ceremony: String
    let skip: String?
    let expected: Expected
    var response: JSONValue
    let outcome: Outcome

    struct Expected: Decodable {
        let challenge: String
        let origin: OneOrMany
        let rpId: OneOrMany?
        let requireUserVerification: Bool
        let requireUserPresence: Bool?
        let verifyAt: String?
        let credentialPublicKey: String?
        let signCount: UInt32?
        let expectedType: OneOrMany?
        let safetyNetEnforceCTSCheck: Bool?
        let trustAnchors: [String: [String]]?
        let allowCrossOrigin: Bool?
        let topOrigins: [String]?
    }

    struct Outcome: Decodable {
        let ok: Bool
        let fmt: String?
        let aaguid: String?
        let credentialId: String?
        let signCount: UInt32?
        let error: String?
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

    static func load(_ file: String) throws -> ConformanceCase {
        try JSONDecoder().decode(ConformanceCase.self, from: ConformanceCorpus.data("cases/" + file))
    }
}
