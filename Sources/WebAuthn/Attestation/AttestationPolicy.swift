public import Foundation
public import X509

/// What a relying party accepts as attestation (WebAuthn §7.1 steps 20–27).
public struct AttestationPolicy: Sendable {
    /// The formats accepted; others fail with `ATTESTATION_FORMAT_NOT_ALLOWED`.
    public var allowedFormats: Set<AttestationFormat>
    /// Trust anchors per format. When a format has anchors (here or, for the authenticator's model, in ``metadata``),
    /// its certificate chain must verify to one of them (else `ATTESTATION_UNTRUSTED`); when it has none, the
    /// statement is verified but reported as untrusted.
    public var trustAnchors: [AttestationFormat: [Certificate]]
    /// Reject registrations whose attestation is not trusted (self, none, or no anchor for the format).
    public var requireTrustedAttestation: Bool
    /// Require SafetyNet's `ctsProfileMatch` (a device that passed Android compatibility testing).
    public var safetyNetRequiresCTSProfileMatch: Bool
    /// How old a SafetyNet response's `timestampMs` may be, and how far in the future it may lie.
    public var safetyNetMaximumAge: TimeInterval
    public var safetyNetClockSkew: TimeInterval
    /// Signature algorithms accepted inside attestation statements. SHA-1 RSA (RS1) is included because
    /// older TPMs sign with it; remove it to reject them.
    public var statementAlgorithms: Set<COSEAlgorithmIdentifier>
    /// FIDO metadata: trust anchors and status reports per authenticator model, for attestations with a
    /// certificate path (see ``MetadataPolicy``).
    public var metadata: MetadataPolicy?

    public init(
        allowedFormats: Set<AttestationFormat> = Set(AttestationFormat.supported),
        trustAnchors: [AttestationFormat: [Certificate]] = [:],
        requireTrustedAttestation: Bool = false,
        safetyNetRequiresCTSProfileMatch: Bool = true,
        safetyNetMaximumAge: TimeInterval = 60,
        safetyNetClockSkew: TimeInterval = 60,
        statementAlgorithms: Set<COSEAlgorithmIdentifier> = Set(COSEAlgorithmIdentifier.supported),
        metadata: MetadataPolicy? = nil
    ) {
        self.allowedFormats = allowedFormats
        self.trustAnchors = trustAnchors
        self.requireTrustedAttestation = requireTrustedAttestation
        self.safetyNetRequiresCTSProfileMatch = safetyNetRequiresCTSProfileMatch
        self.safetyNetMaximumAge = safetyNetMaximumAge
        self.safetyNetClockSkew = safetyNetClockSkew
        self.statementAlgorithms = statementAlgorithms
        self.metadata = metadata
    }
}
