public import Foundation
public import X509

/// A verified FIDO Metadata Service BLOB (FIDO Metadata Service v3.0 §3.1.7): the signed list of authenticator
/// models with their attestation roots and status reports, which a relying party downloads from the service and
/// passes here as bytes. The library never fetches anything.
///
/// ```swift
/// let blob = try await MetadataBLOB(jws: blobBytes, rootCertificates: [fidoRoot], at: .now)
/// let policy = AttestationPolicy(metadata: MetadataPolicy(blob: blob))
/// ```
///
/// Creating one verifies the BLOB as FIDO Metadata Service §3.2 says, at the given time:
/// - it is a compact JWS within ``Limits`` (no `crit`, no `x5u`: certificates are never fetched);
/// - its signature verifies with the key of the first `x5c` certificate (with a root's key when there is no `x5c`,
///   §3.2 step 5), by one of RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512 or EdDSA (§3.2 step 6);
/// - the `x5c` chain verifies to one of `rootCertificates` at `time` (RFC 5280 path validation, swift-certificates);
/// - the payload's own members have the shape of §3.1.6 (`legalHeader`, `no`, `nextUpdate`, `entries` an array of at
///   most ``Limits/maximumEntries``);
/// - it is not stale: `time` is not past the day of its `nextUpdate`, unless `allowStale` (§3.2 step 3: the BLOB
///   should be downloaded again by then).
/// A failure of any of these is about the BLOB as a whole: `METADATA_INVALID`, or `METADATA_STALE` for staleness.
///
/// Each entry is then checked on its own (§3.1.1: identifiers, metadata statement, status reports, each value within
/// ``Limits``). One vendor's mistake spoils only its own model: an entry that is malformed, or that lists an AAGUID
/// or attestation certificate key identifier another entry lists too, is set aside in ``unusableEntries`` with its
/// reason, and every model it lists is ``Lookup/unusable(reason:)``, so that registration refuses that model
/// rather than trusting or refusing it by the wrong entry.
///
/// Not done: fetching `x5u`, revocation checks (CRLs) of the BLOB's chain and of attestation certificates, and
/// comparing ``number`` with that of a BLOB loaded before (§3.2 step 6); the caller can do the last.
public struct MetadataBLOB: Sendable {
    /// Bounds on what a BLOB may hold. The defaults are far above the real BLOB (a few MB, a few hundred entries).
    public struct Limits: Sendable {
        /// The largest BLOB accepted, in bytes.
        public var maximumSize = 32 * 1024 * 1024
        /// The most entries (of any protocol family).
        public var maximumEntries = 10_000
        /// The longest text value (legal header, description, status, date), in UTF-8 bytes.
        public var maximumStringLength = 4096
        /// The longest base64 attestation root certificate, in characters.
        public var maximumCertificateLength = 16 * 1024
        /// The most items in one entry's list (root certificates, key identifiers, status reports).
        public var maximumListLength = 1024
        /// The most certificates in the JWS header's `x5c`.
        public var maximumSigningCertificates = 5

        public init() {}
    }

    /// The payload's `legalHeader`: the terms under which the BLOB may be used.
    public let legalHeader: String
    /// The payload's serial number, `no`: a later BLOB has a greater one.
    public let number: Int
    /// The payload's `nextUpdate`: the day by which a new BLOB is published (the start of that day, UTC).
    public let nextUpdate: Date
    let index: Index
    /// The usable FIDO2 and U2F entries, in the order the BLOB lists them (UAF entries are left out).
    public var entries: [MetadataEntry] { index.entries }
    /// The entries set aside, in the order the BLOB lists them: log them, so that an operator knows which models are
    /// refused until the metadata service corrects them.
    public var unusableEntries: [UnusableMetadataEntry] { index.unusableEntries }

    /// Verifies and decodes a BLOB.
    /// - Parameters:
    ///   - jws: the BLOB as downloaded (the compact JWS, ASCII).
    ///   - rootCertificates: the roots its signing chain must reach (the FIDO Alliance's, for the real service).
    ///   - time: when to check certificate validity and staleness.
    ///   - allowStale: accept a BLOB whose `nextUpdate` has passed.
    public init(
        jws: [UInt8],
        rootCertificates: [Certificate],
        at time: Date,
        allowStale: Bool = false,
        limits: Limits = Limits()
    ) async throws(WebAuthnError) {
        let payload = try MetadataBLOBPayload(
            json: try await Self.verifiedPayload(jws, rootCertificates: rootCertificates, at: time, limits: limits),
            limits: limits
        )
        legalHeader = payload.legalHeader
        number = payload.number
        nextUpdate = payload.nextUpdate
        index = Index(payload.entries)
        guard allowStale || !isStale(at: time) else {
            throw WebAuthnError(
                .metadataStale,
                "The metadata BLOB (no \(number)) is stale at \(time): its nextUpdate, \(MetadataDate.format(nextUpdate)), has passed. Download the current BLOB from the FIDO Metadata Service, or allow a stale one explicitly."
            )
        }
    }

    /// Whether `time` is past the day of ``nextUpdate``, by which a new BLOB should have been downloaded.
    public func isStale(at time: Date) -> Bool {
        time >= nextUpdate.addingTimeInterval(86_400)
    }
}
