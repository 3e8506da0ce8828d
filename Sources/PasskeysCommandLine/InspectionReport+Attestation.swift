import Foundation
import SwiftASN1
import WebAuthn
import X509

/// The attestation object: its statement, certificates and SafetyNet response.
extension InspectionReport {
    mutating func attestationObject(_ object: AttestationObject, size: Int, rawId: [UInt8]? = nil) throws(WebAuthnError)
    {
        heading("Attestation object (\(Self.count(size, "byte")))")
        field(
            "fmt",
            object.format.rawValue
                + (AttestationFormat.supported.contains(object.format) ? "" : " (not a supported format)")
        )
        if object.statement.mapEntries?.isEmpty == true {
            field("attStmt", "{} (empty)")
        } else {
            field("attStmt", "")
            statementFields(object.statement, format: object.format, depth: 2)
        }
        try authenticatorData(object.authenticatorData, source: "authData", rawId: rawId)
    }

    /// The members of an attestation statement (or, for `compound`, its list of statements).
    mutating func statementFields(_ statement: CBORValue, format: AttestationFormat, depth: Int) {
        if let items = statement.arrayValue {
            for (index, item) in items.enumerated() {
                let nestedFormat = item[text: "fmt"]?.textValue.map(AttestationFormat.init(rawValue:)) ?? format
                field("[\(index)]", nestedFormat.rawValue, depth: depth)
                if let nested = item[text: "attStmt"] {
                    statementFields(nested, format: nestedFormat, depth: depth + 1)
                }
            }
            return
        }
        for entry in statement.mapEntries ?? [] {
            let label = entry.key.textValue ?? Self.cborText(entry.key)
            switch (label, entry.value) {
            case ("alg", let value) where value.intValue != nil:
                field(label, Self.algorithm(COSEAlgorithmIdentifier(rawValue: value.intValue ?? 0)), depth: depth)
            case ("x5c", .array(let items)):
                field(label, Self.count(items.count, "certificate"), depth: depth)
                for (index, item) in items.enumerated() {
                    certificate(item.bytesValue ?? [], index: index, depth: depth + 1)
                }
            case ("response", .bytes(let jws)) where format == .androidSafetyNet:
                safetyNetResponse(jws, depth: depth)
            default:
                cbor(label, entry.value, depth: depth)
            }
        }
    }

    mutating func certificate(_ der: [UInt8], index: Int, depth: Int) {
        guard let certificate = try? Certificate(derEncoded: der) else {
            field("[\(index)]", "not a valid DER X.509 certificate (\(Self.count(der.count, "byte")))", depth: depth)
            return
        }
        let subject = certificate.subject.description
        field("[\(index)] subject", subject.isEmpty ? "(empty)" : subject, depth: depth)
        field(
            "    issuer",
            certificate.issuer.description + (certificate.issuer == certificate.subject ? " (self-issued)" : ""),
            depth: depth
        )
        field(
            "    validity",
            "\(Self.time(certificate.notValidBefore)) to \(Self.time(certificate.notValidAfter))",
            depth: depth
        )
        field(
            "    serial",
            certificate.serialNumber.bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: ":"),
            depth: depth
        )
        if let names = try? certificate.extensions.subjectAlternativeNames {
            field("    subjectAltName", names.description, depth: depth)
        }
        let isCA: String
        switch try? certificate.extensions.basicConstraints {
        case .isCertificateAuthority?: isCA = "yes"
        case .notCertificateAuthority?: isCA = "no"
        case nil: isCA = "(no basic constraints)"
        }
        field("    CA", isCA, depth: depth)
    }

    /// SafetyNet's `response`: a JWS whose header carries the certificate chain and whose payload the attestation.
    mutating func safetyNetResponse(_ jws: [UInt8], depth: Int) {
        let parts = String(decoding: jws, as: UTF8.self).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let header = try? WebAuthnJSON.decode(JSONValue.self, from: Base64URL.decode(parts[0])),
            let payload = try? WebAuthnJSON.decode(JSONValue.self, from: Base64URL.decode(parts[1]))
        else {
            field("response", "\(Self.count(jws.count, "byte")), not a compact JWS", depth: depth)
            return
        }
        field("response", "JWS, \(Self.count(jws.count, "byte"))", depth: depth)
        if case .object(let members) = header {
            for name in members.keys.sorted() {
                if name == "x5c", case .array(let items)? = members[name] {
                    field("header x5c", Self.count(items.count, "certificate"), depth: depth + 1)
                    for (index, item) in items.enumerated() {
                        guard case .string(let base64) = item, let der = Data(base64Encoded: base64) else { continue }
                        certificate(Array(der), index: index, depth: depth + 2)
                    }
                } else {
                    field("header \(name)", Self.jsonText(members[name] ?? .null), depth: depth + 1)
                }
            }
        }
        if case .object(let members) = payload {
            for name in members.keys.sorted() { field(name, Self.jsonText(members[name] ?? .null), depth: depth + 1) }
        }
    }
}
