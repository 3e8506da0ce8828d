public import X509

/// The outcome of verifying an attestation statement (§7.1 steps 21–23).
public struct VerifiedAttestation: Sendable {
    public let format: AttestationFormat
    public let type: AttestationType
    /// The attestation certificate chain, leaf first, as the statement carried it (empty for none/self).
    public let trustPath: [Certificate]
    /// True when the trust path verified to a configured trust anchor: the format's, or one of the authenticator's
    /// model in FIDO metadata.
    public let trusted: Bool
    /// The FIDO metadata entry of the authenticator's model (its ``MetadataEntry/description``, status reports, …),
    /// when the trust path verified to one of that entry's attestation roots: only then does the metadata vouch for
    /// the model. Nil without metadata and for `none` and self attestation; for `compound`, that of its trusted statement.
    public let metadata: MetadataEntry?
    /// For `compound` attestation, the verified statements it holds.
    public let components: [VerifiedAttestation]
}
