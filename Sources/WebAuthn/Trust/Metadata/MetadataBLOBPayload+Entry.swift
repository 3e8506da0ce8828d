import Foundation
import X509

extension MetadataBLOBPayload {
    /// One FIDO2 or U2F member of the payload's `entries` (FIDO Metadata Service §3.1.1), decoded, or set aside with
    /// the reason and whatever identifiers of it could be read.
    struct DecodedEntry {
        /// The position in the payload's `entries`, counting every member.
        let index: Int
        let aaguid: AAGUID?
        /// Lower-case hex, each listed once.
        let keyIdentifiers: [String]
        /// The decoded entry, or why it could not be decoded.
        let content: Result<MetadataEntry, Problem>

        /// Nil for a UAF entry, which WebAuthn has no use for.
        init?(_ slot: Wire.Slot, index: Int, checker: Checker) {
            let identifiers = slot.entry.map(Wire.Identifiers.init) ?? slot.identifiers ?? Wire.Identifiers()
            guard identifiers.aaguid != nil || !identifiers.keyIdentifiers.isEmpty || !identifiers.aaid else {
                return nil
            }
            self.index = index
            let path = "entries[\(index)]"
            do throws(Problem) {
                guard let wire = slot.entry else {
                    throw Problem("\(path) is malformed: \(slot.failure ?? "undecodable JSON")")
                }
                let entry = try Self.entry(wire, at: path, checker: checker)
                aaguid = entry.aaguid
                keyIdentifiers = Self.unique(entry.attestationCertificateKeyIdentifiers)
                content = .success(entry)
            } catch {
                // Set aside, with what can be read of its identifiers, so that its model is known to be unusable.
                aaguid = identifiers.aaguid.flatMap { try? checker.aaguid($0, "") }
                keyIdentifiers = Self.unique(
                    identifiers.keyIdentifiers.prefix(checker.limits.maximumListLength).compactMap {
                        try? checker.keyIdentifier($0, "")
                    }
                )
                content = .failure(error)
            }
        }

        private static func unique(_ identifiers: [String]) -> [String] {
            var seen = Set<String>()
            return identifiers.filter { seen.insert($0).inserted }
        }

        /// §3.1.1: an entry with at least one identifier, each value well-formed and within the limits.
        private static func entry(
            _ wire: Wire.Entry,
            at path: String,
            checker: Checker
        ) throws(Problem) -> MetadataEntry {
            let keyIdentifiers = try checker.list(
                wire.attestationCertificateKeyIdentifiers ?? [],
                "\(path).attestationCertificateKeyIdentifiers"
            )
            guard wire.aaguid != nil || !keyIdentifiers.isEmpty else {
                throw Problem("\(path) has none of 'aaguid', 'attestationCertificateKeyIdentifiers' and 'aaid'")
            }
            let aaguid = try wire.aaguid.map { text throws(Problem) in try checker.aaguid(text, "\(path).aaguid") }
            var identifiers = [String]()
            for (index, text) in keyIdentifiers.enumerated() {
                identifiers.append(
                    try checker.keyIdentifier(text, "\(path).attestationCertificateKeyIdentifiers[\(index)]")
                )
            }
            var roots = [Certificate]()
            var description: String?
            if let statement = wire.metadataStatement {
                let statementPath = "\(path).metadataStatement"
                description = try statement.description.map { text throws(Problem) in
                    try checker.text(text, "\(statementPath).description")
                }
                if let claimed = statement.aaguid {
                    guard try checker.aaguid(claimed, "\(statementPath).aaguid") == aaguid else {
                        throw Problem("\(statementPath).aaguid differs from \(path).aaguid")
                    }
                }
                let encoded = try checker.list(
                    statement.attestationRootCertificates ?? [],
                    "\(statementPath).attestationRootCertificates"
                )
                for (index, text) in encoded.enumerated() {
                    roots.append(
                        try checker.certificate(text, "\(statementPath).attestationRootCertificates[\(index)]")
                    )
                }
            }
            var reports = [MetadataStatusReport]()
            for (index, report) in try checker.list(wire.statusReports ?? [], "\(path).statusReports").enumerated() {
                let reportPath = "\(path).statusReports[\(index)]"
                reports.append(
                    MetadataStatusReport(
                        status: AuthenticatorStatus(rawValue: try checker.text(report.status, "\(reportPath).status")),
                        effectiveDate: try report.effectiveDate.map { text throws(Problem) in
                            try checker.date(text, "\(reportPath).effectiveDate")
                        }
                    )
                )
            }
            guard let changed = wire.timeOfLastStatusChange else {
                throw Problem("\(path) has no 'timeOfLastStatusChange'")
            }
            return MetadataEntry(
                aaguid: aaguid,
                attestationCertificateKeyIdentifiers: identifiers,
                description: description,
                attestationRootCertificates: roots,
                statusReports: reports,
                timeOfLastStatusChange: try checker.date(changed, "\(path).timeOfLastStatusChange")
            )
        }
    }
}
