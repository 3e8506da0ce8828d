import Foundation

/// The payload of a verified metadata BLOB (FIDO Metadata Service §3.1.6, `MetadataBLOBPayload`), decoded and
/// checked against ``MetadataBLOB/Limits``. Only what the library uses is read; other members are ignored.
///
/// The payload's own members (`legalHeader`, `no`, `nextUpdate`, `entries` as an array within the entry limit) must
/// be valid, or the whole BLOB is `METADATA_INVALID`. Each entry is then read on its own: one that is malformed or
/// over a limit is set aside with its reason (see `MetadataBLOBPayload+Entry.swift`), and the others are kept.
/// Entries of UAF authenticators (with an `aaid`, but neither an `aaguid` nor attestation certificate key
/// identifiers) are skipped: WebAuthn has no use for them.
struct MetadataBLOBPayload {
    let legalHeader: String
    let number: Int
    let nextUpdate: Date
    /// The FIDO2 and U2F entries, in payload order, each decoded or set aside.
    let entries: [DecodedEntry]

    struct Wire: Decodable {
        let legalHeader: String
        let no: Int
        let nextUpdate: String
        let entries: [Slot]

        /// One member of `entries`, decoded on its own so that a malformed entry spoils only itself.
        struct Slot: Decodable {
            /// The entry, when it has the expected JSON types.
            let entry: Entry?
            /// Why it does not, when it does not.
            let failure: String?
            /// What could be read of its identifiers, when it does not.
            let identifiers: Identifiers?

            init(from decoder: any Decoder) {
                do {
                    entry = try Entry(from: decoder)
                    (failure, identifiers) = (nil, nil)
                } catch {
                    entry = nil
                    failure = JSONErrorText.describe(error)
                    identifiers = Identifiers(decoder)
                }
            }
        }

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

        /// The identifying members of an entry, as text. Of an entry that does not decode, each is read if it has
        /// the expected type.
        struct Identifiers {
            var aaid = false
            var aaguid: String?
            var keyIdentifiers: [String] = []

            private enum Key: String, CodingKey {
                case aaid, aaguid, attestationCertificateKeyIdentifiers
            }

            init() {}

            init(_ entry: Entry) {
                aaid = entry.aaid != nil
                aaguid = entry.aaguid
                keyIdentifiers = entry.attestationCertificateKeyIdentifiers ?? []
            }

            init(_ decoder: any Decoder) {
                guard let container = try? decoder.container(keyedBy: Key.self) else { return }
                aaid = container.contains(.aaid)
                aaguid = try? container.decodeIfPresent(String.self, forKey: .aaguid)
                keyIdentifiers =
                    (try? container.decodeIfPresent([String].self, forKey: .attestationCertificateKeyIdentifiers))
                    ?? []
            }
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
        do throws(Problem) {
            legalHeader = try checker.text(wire.legalHeader, "legalHeader")
            nextUpdate = try checker.date(wire.nextUpdate, "nextUpdate")
        } catch {
            throw Self.invalid(error.reason)
        }
        guard wire.no >= 0 else { throw Self.invalid("'no' is negative") }
        number = wire.no
        guard wire.entries.count <= limits.maximumEntries else {
            throw Self.invalid("it has \(wire.entries.count) entries; the limit is \(limits.maximumEntries)")
        }
        entries = wire.entries.enumerated().compactMap { index, slot in
            DecodedEntry(slot, index: index, checker: checker)
        }
    }

    static func invalid(_ reason: String) -> WebAuthnError {
        WebAuthnError(.metadataInvalid, "The metadata BLOB's payload is not valid: \(reason).")
    }
}
