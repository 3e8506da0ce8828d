public import Foundation
public import X509

/// One authenticator model of a verified ``MetadataBLOB``: a FIDO2 model (by AAGUID) or a U2F model (by the key
/// identifiers of its attestation certificates). FIDO Metadata Service §3.1.1, `MetadataBLOBPayloadEntry`.
public struct MetadataEntry: Sendable {
    /// The model's AAGUID (FIDO2).
    public let aaguid: AAGUID?
    /// The key identifiers of the model's attestation certificates (U2F), lower-case hex; see
    /// `Certificate.attestationCertificateKeyIdentifier`.
    public let attestationCertificateKeyIdentifiers: [String]
    /// The metadata statement's `description`: the model's name, such as "Security Key NFC by Yubico".
    public let description: String?
    /// The metadata statement's `attestationRootCertificates`: the trust anchors of the model's attestations.
    public let attestationRootCertificates: [Certificate]
    /// The status reports, in the order the BLOB lists them.
    public let statusReports: [MetadataStatusReport]
    /// Since when the status reports have their current value.
    public let timeOfLastStatusChange: Date

    /// The report that reflects the model's current status: the last one listed. FIDO Metadata Service §3.1.3:
    /// status reports are added as issues become known, and the latest one must reflect the current status, so a
    /// `FIDO_CERTIFIED` report listed after a `REVOKED` one means the model is trusted again.
    public var latestStatusReport: MetadataStatusReport? { statusReports.last }
}

/// A status of an authenticator model and since when it applies (FIDO Metadata Service §3.1.3, `StatusReport`).
public struct MetadataStatusReport: Sendable, Hashable {
    public let status: AuthenticatorStatus
    /// The report's `effectiveDate`, when it has one.
    public let effectiveDate: Date?
}
