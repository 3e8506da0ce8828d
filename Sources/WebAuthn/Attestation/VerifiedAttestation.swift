public import X509

/// The outcome of verifying an attestation statement (§7.1 steps 21–23).
public struct VerifiedAttestation: Sendable {
    public let format: AttestationFormat
    public let type: AttestationType
    /// The attestation certificate chain, leaf first, as the statement carried it (empty for none/self).
    public let trustPath: [Certificate]
    /// True when the trust path verified to a configured trust anchor for the format.
    public let trusted: Bool
    /// For `compound` attestation, the verified statements it holds.
    public let components: [VerifiedAttestation]
}
