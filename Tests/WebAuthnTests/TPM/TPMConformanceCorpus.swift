import CorpusTestSupport
import Crypto
import Foundation
import Testing

@testable import WebAuthn

/// The TPM registration cases of the real-device conformance corpus (``ConformanceCorpus``).
enum TPMConformanceCorpus {
    /// The TPM registration cases: files named `NNN-<lib>-tpm-<name>.json` whose ceremony is a registration and
    /// that are not marked `skip`.
    static let tpmCaseNames: [String] = {
        ConformanceCorpus.caseFiles().filter { $0.hasSuffix(".json") && $0.contains("-tpm-") }.sorted().filter { name in
            guard let json = try? TPMCorpusCase.json(named: name) else { return true }  // let the test report it
            return json["ceremony"] as? String == "registration" && json["skip"] == nil
        }
    }()
}

/// One registration case of the corpus, decoded.
struct TPMCorpusCase {
    let name: String
    let attestationObject: AttestationObject
    let clientDataHash: [UInt8]
    /// `outcome.ok`.
    let expectsSuccess: Bool
    /// The attestation object as sent.
    let rawAttestationObject: [UInt8]

    init(named name: String) throws {
        self.name = name
        let json = try Self.json(named: name)
        let response = try #require(
            (json["response"] as? [String: Any])?["response"] as? [String: Any],
            "\(name) has no response.response"
        )
        let attestationObject = try #require(response["attestationObject"] as? String)
        let clientDataJSON = try #require(response["clientDataJSON"] as? String)
        rawAttestationObject = try Base64URL.decode(attestationObject)
        self.attestationObject = try AttestationObject(
            bytes: rawAttestationObject
        )
        self.clientDataHash = Array(SHA256.hash(data: try Base64URL.decode(clientDataJSON)))
        self.expectsSuccess = try #require((json["outcome"] as? [String: Any])?["ok"] as? Bool)
    }

    static func json(named name: String) throws -> [String: Any] {
        try ConformanceCorpus.json(name)
    }

    var number: String { String(name.prefix(3)) }

    /// The statement with x5c cut to the AIK certificate where swift-certificates cannot decode the rest, so that
    /// checks of the statement itself run on every case.
    var fieldsForStatementChecks: CBORValue { attestationObject.statement }

    func statement(
        fields: CBORValue? = nil,
        clientDataHash: [UInt8]? = nil,
        policy: AttestationPolicy = AttestationPolicy()
    ) throws -> AttestationStatement {
        try AttestationStatement.tpm(
            fields: fields ?? attestationObject.statement,
            authenticatorData: attestationObject.authenticatorData,
            clientDataHash: clientDataHash ?? self.clientDataHash,
            policy: policy
        )
    }
}

extension AttestationStatement {
    /// A `tpm` statement as the registration ceremony would build it.
    static func tpm(
        fields: CBORValue,
        authenticatorData: AuthenticatorData,
        clientDataHash: [UInt8],
        policy: AttestationPolicy = AttestationPolicy()
    ) throws -> AttestationStatement {
        let credential = try #require(
            authenticatorData.attestedCredentialData,
            "the authenticator data has no attested credential data"
        )
        return AttestationStatement(
            format: .tpm,
            fields: fields,
            authenticatorData: authenticatorData,
            credential: credential,
            clientDataHash: clientDataHash,
            policy: policy,
            time: Date()
        )
    }
}

extension CBORValue {
    /// A copy of this map with `key` set to `value`, or removed when `value` is nil.
    func settingTPMField(_ key: String, to value: CBORValue?) -> CBORValue {
        var entries = (mapEntries ?? []).filter { $0.key != .text(key) }
        if let value { entries.append(CBORMapEntry(.text(key), value)) }
        return .map(entries)
    }

    /// The byte string at `key`, or an empty array.
    func tpmBytes(_ key: String) -> [UInt8] { self[text: key]?.bytesValue ?? [] }
}
