import Foundation
import X509

/// The payload of a verified metadata BLOB (FIDO Metadata Service §3.1.6, `MetadataBLOBPayload`), decoded and
/// checked against ``MetadataBLOB/Limits``. Only what the library uses is read; other members are ignored.
/// Entries of UAF authenticators (with an `aaid`, but neither an `aaguid` nor attestation certificate key
/// identifiers) are skipped: WebAuthn has no use for them.
struct MetadataBLOBPayload {
    let legalHeader: String
    let number: Int
    let nextUpdate: Date
    let entries: [MetadataEntry]

    private struct Wire: Decodable {
        let legalHeader: String
        let no: Int
        let nextUpdate: String
        let entries: [Entry]

        struct Entry: Decodable {
            let aaid: String?
            let aaguid: String?
            let attestationCertificateKeyIdentifiers: [String]?
            let metadataStatement: Statement?
            let statusReports: [StatusReport]?
            let timeOfLastStatusChange: String?
        }

        struct Statement: Decodable {
            let description: String?
            let aaguid: String?
            let attestationRootCertificates: [String]?
        }

        struct StatusReport: Decodable {
            let status: String
            let effectiveDate: String?
        }
    }

    init(json: [UInt8], limits: MetadataBLOB.Limits) throws(WebAuthnError) {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(json))
        } catch {
            throw Self.invalid("the payload is not a metadata BLOB payload: \(JSONErrorText.describe(error))")
        }
        let checker = Checker(limits: limits)
        legalHeader = try checker.text(wire.legalHeader, "legalHeader")
        guard wire.no >= 0 else { throw Self.invalid("'no' is negative") }
        number = wire.no
        nextUpdate = try checker.date(wire.nextUpdate, "nextUpdate")
        guard wire.entries.count <= limits.maximumEntries else {
            throw Self.invalid("it has \(wire.entries.count) entries; the limit is \(limits.maximumEntries)")
        }
        var entries = [MetadataEntry]()
        for (index, entry) in wire.entries.enumerated() {
            if let decoded = try Self.entry(entry, at: "entries[\(index)]", checker: checker) {
                entries.append(decoded)
            }
        }
        self.entries = entries
    }

    /// A FIDO2 or U2F entry; nil for a UAF entry.
    private static func entry(
        _ wire: Wire.Entry,
        at path: String,
        checker: Checker
    ) throws(WebAuthnError)
        -> MetadataEntry?
    {
        let keyIdentifiers = try checker.list(
            wire.attestationCertificateKeyIdentifiers ?? [],
            "\(path).attestationCertificateKeyIdentifiers"
        )
        guard wire.aaguid != nil || !keyIdentifiers.isEmpty else {
            guard wire.aaid != nil else {
                throw invalid("\(path) has none of 'aaguid', 'attestationCertificateKeyIdentifiers' and 'aaid'")
            }
            return nil
        }
        let aaguid = try wire.aaguid.map { text throws(WebAuthnError) in try checker.aaguid(text, "\(path).aaguid") }
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
            description = try statement.description.map { text throws(WebAuthnError) in
                try checker.text(text, "\(statementPath).description")
            }
            if let claimed = statement.aaguid {
                guard try checker.aaguid(claimed, "\(statementPath).aaguid") == aaguid else {
                    throw invalid("\(statementPath).aaguid differs from \(path).aaguid")
                }
            }
            let encoded = try checker.list(
                statement.attestationRootCertificates ?? [],
                "\(statementPath).attestationRootCertificates"
            )
            for (index, text) in encoded.enumerated() {
                roots.append(try checker.certificate(text, "\(statementPath).attestationRootCertificates[\(index)]"))
            }
        }
        var reports = [MetadataStatusReport]()
        for (index, report) in try checker.list(wire.statusReports ?? [], "\(path).statusReports").enumerated() {
            let reportPath = "\(path).statusReports[\(index)]"
            reports.append(
                MetadataStatusReport(
                    status: AuthenticatorStatus(rawValue: try checker.text(report.status, "\(reportPath).status")),
                    effectiveDate: try report.effectiveDate.map { text throws(WebAuthnError) in
                        try checker.date(text, "\(reportPath).effectiveDate")
                    }
                )
            )
        }
        guard let changed = wire.timeOfLastStatusChange else {
            throw invalid("\(path) has no 'timeOfLastStatusChange'")
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

    static func invalid(_ reason: String) -> WebAuthnError {
        WebAuthnError(.metadataInvalid, "The metadata BLOB's payload is not valid: \(reason).")
    }
}
