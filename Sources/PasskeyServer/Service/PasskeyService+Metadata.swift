import Logging
import WebAuthn

extension PasskeyService {
    /// At start: the entries of the FIDO metadata BLOB that are set aside (malformed, or listing a model another entry
    /// lists too), so that an operator knows which models attested registrations refuse. One warning with the count,
    /// then one notice per entry with its position, identifiers and reason. Nothing when every entry is usable.
    static func logUnusableEntries(of blob: MetadataBLOB, to logger: Logger) {
        let unusable = blob.unusableEntries
        guard !unusable.isEmpty else { return }
        let count = unusable.count == 1 ? "1 entry of the BLOB is" : "\(unusable.count) entries of the BLOB are"
        logger.warning(
            "FIDO metadata: \(count) set aside; attested registrations of their models are refused until the BLOB is corrected",
            metadata: ["blob": "\(blob.number)", "setAside": "\(unusable.count)", "usable": "\(blob.entries.count)"]
        )
        for entry in unusable {
            var metadata: Logger.Metadata = ["index": "\(entry.index)", "reason": "\(entry.reason)"]
            if let aaguid = entry.aaguid { metadata["aaguid"] = "\(aaguid)" }
            let identifiers = entry.attestationCertificateKeyIdentifiers
            if !identifiers.isEmpty {
                let more = identifiers.count > 5 ? " and \(identifiers.count - 5) more" : ""
                metadata["keyIdentifiers"] = "\(identifiers.prefix(5).joined(separator: ","))\(more)"
            }
            logger.notice("FIDO metadata entry set aside", metadata: metadata)
        }
    }
}
