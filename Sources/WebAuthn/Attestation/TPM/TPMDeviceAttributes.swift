import SwiftASN1
import X509

/// The TPM device attributes of an AIK certificate (TCG EK Credential Profile §3.2.9, referenced by
/// WebAuthn §8.3.1): a `directoryName` in the subject alternative name that carries the TPM manufacturer,
/// model and version. TPMs in the field put the three attributes either in one multi-valued RDN or in three
/// RDNs; both are accepted, but each attribute must occur exactly once.
struct TPMDeviceAttributes: Sendable, Hashable {
    /// tcg-at-tpmManufacturer.
    static let manufacturerOID: ASN1ObjectIdentifier = [2, 23, 133, 2, 1]
    /// tcg-at-tpmModel.
    static let modelOID: ASN1ObjectIdentifier = [2, 23, 133, 2, 2]
    /// tcg-at-tpmVersion.
    static let versionOID: ASN1ObjectIdentifier = [2, 23, 133, 2, 3]

    let manufacturer: String
    let model: String
    let version: String

    /// Reads the attributes from the subject alternative names; the failure reason when they are not there.
    init(_ names: SubjectAlternativeNames) throws(TPMParseError) {
        let attributes = names.flatMap { name -> [RelativeDistinguishedName.Attribute] in
            guard case .directoryName(let directory) = name else { return [] }
            return directory.flatMap { $0 }
        }
        guard !attributes.isEmpty else {
            throw TPMParseError(
                "the subject alternative name has no directoryName with the TPM manufacturer, model and version."
            )
        }
        func value(_ oid: ASN1ObjectIdentifier, _ label: String) throws(TPMParseError) -> String {
            let matches = attributes.filter { $0.type == oid }
            guard matches.count == 1 else {
                throw TPMParseError(
                    "the subject alternative name must carry the TPM \(label) (\(oid)) exactly once; it carries it \(matches.count) times."
                )
            }
            guard let text = String(matches[0].value), !text.isEmpty else {
                throw TPMParseError(
                    "the TPM \(label) (\(oid)) in the subject alternative name is not a non-empty string."
                )
            }
            return text
        }
        manufacturer = try value(Self.manufacturerOID, "manufacturer")
        model = try value(Self.modelOID, "model")
        version = try value(Self.versionOID, "version")
    }
}
