/// An entry of a ``MetadataBLOB`` that is set aside: malformed, over a limit, or listing a model (an AAGUID or an
/// attestation certificate key identifier) that another entry lists too. Its models are unusable: an attestation
/// that speaks for one of them is refused (`METADATA_ENTRY_UNUSABLE`), and nothing else is affected. See
/// ``MetadataBLOB/unusableEntries``.
public struct UnusableMetadataEntry: Sendable, Hashable {
    /// The entry's position in the payload's `entries`, from 0, counting every entry (UAF ones too).
    public let index: Int
    /// The entry's AAGUID, when it could be read.
    public let aaguid: AAGUID?
    /// The entry's attestation certificate key identifiers that could be read, lower-case hex.
    public let attestationCertificateKeyIdentifiers: [String]
    /// Why it is set aside: the member that is malformed or over a limit, or the other entries that list its model.
    public let reason: String
}
