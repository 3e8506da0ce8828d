import Foundation
import X509

/// How registration uses FIDO metadata (WebAuthn §7.1 steps 22–23 with FIDO Metadata Service §3.1): set it as
/// ``AttestationPolicy/metadata``.
///
/// For an attestation with a certificate path (every format but `none` and self attestation), the authenticator's
/// entry is looked up: by AAGUID when it is not zero, else (U2F) or when that finds nothing, by the key identifier
/// of the attestation certificate. Then:
/// - a stale BLOB fails with `METADATA_STALE`, unless ``allowStale``;
/// - no entry fails with `METADATA_ENTRY_NOT_FOUND` when ``requireEntry`` is set, and is otherwise no verdict;
/// - a model the BLOB lists but whose entry cannot be used (``MetadataBLOB/Lookup/unusable(reason:)``: listed by more
///   than one entry, or its entry set aside) fails with `METADATA_ENTRY_UNUSABLE`, whatever ``requireEntry`` says:
///   neither entry may be applied to it, and it is not absent either;
/// - an entry whose latest status report is compromised (``AuthenticatorStatus/compromised``) fails with
///   `AUTHENTICATOR_COMPROMISED`;
/// - the entry's `attestationRootCertificates` are trust anchors for the path, besides the format's. A path that
///   reaches neither fails with `ATTESTATION_UNTRUSTED`: an authenticator that claims a model must prove it.
///
/// A `none` or self attestation is never looked up, so its AAGUID (which nothing vouches for: anyone can write any
/// AAGUID into unattested authenticator data) gains no trust, no description, and no refusal from the metadata;
/// ``requireEntry`` does not apply to it. Refuse such registrations with
/// ``AttestationPolicy/requireTrustedAttestation`` or ``AttestationPolicy/allowedFormats``.
public struct MetadataPolicy: Sendable {
    public var blob: MetadataBLOB
    /// Refuse attested registrations of authenticators the metadata has no entry for.
    public var requireEntry: Bool
    /// Keep using the BLOB after its `nextUpdate` has passed.
    public var allowStale: Bool

    public init(blob: MetadataBLOB, requireEntry: Bool = false, allowStale: Bool = false) {
        self.blob = blob
        self.requireEntry = requireEntry
        self.allowStale = allowStale
    }

    /// The entry for the authenticator an attestation's trust path speaks for, after the checks above; nil for an
    /// attestation without a trust path, or an authenticator without an entry.
    func entry(
        trustPath: [Certificate],
        aaguid: AAGUID,
        format: AttestationFormat,
        time: Date
    ) throws(WebAuthnError) -> MetadataEntry? {
        guard let attestationCertificate = trustPath.first else { return nil }
        guard allowStale || !blob.isStale(at: time) else {
            throw WebAuthnError(
                .metadataStale,
                "The FIDO metadata BLOB (no \(blob.number)) is stale: its nextUpdate, \(MetadataDate.format(blob.nextUpdate)), has passed. Load the current BLOB, or allow a stale one."
            )
        }
        // By AAGUID, then (U2F, or an AAGUID the BLOB does not list) by the attestation certificate's key identifier.
        var model = "AAGUID \(aaguid)"
        var lookup: MetadataBLOB.Lookup = aaguid == .zero ? .absent : blob.lookup(aaguid: aaguid)
        if case .absent = lookup {
            model =
                "attestation certificate key identifier \(attestationCertificate.attestationCertificateKeyIdentifier)"
            lookup = blob.lookup(attestationCertificate: attestationCertificate)
        }
        let entry: MetadataEntry
        switch lookup {
        case .found(let found):
            entry = found
        case .unusable(let reason):
            throw WebAuthnError(
                .metadataEntryUnusable,
                "\(format.rawValue) attestation: the FIDO metadata lists this authenticator's model (\(model)) but has no usable entry for it: \(reason). The model is refused until the metadata service corrects its entry; register another authenticator."
            )
        case .absent:
            guard !requireEntry else {
                throw WebAuthnError(
                    .metadataEntryNotFound,
                    "\(format.rawValue) attestation: the FIDO metadata has no entry for this authenticator (AAGUID \(aaguid), attestation certificate key identifier \(attestationCertificate.attestationCertificateKeyIdentifier)), and the relying party accepts only authenticators it lists."
                )
            }
            return nil
        }
        if let report = entry.latestStatusReport, report.status.isCompromised {
            let since = report.effectiveDate.map { " since \(MetadataDate.format($0))" } ?? ""
            throw WebAuthnError(
                .authenticatorCompromised,
                "\(format.rawValue) attestation: the FIDO metadata reports this authenticator model (\(entry.description ?? "AAGUID \(aaguid)")) as \(report.status.rawValue)\(since); register another authenticator."
            )
        }
        return entry
    }
}
