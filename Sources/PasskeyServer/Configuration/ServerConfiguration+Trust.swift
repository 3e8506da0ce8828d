public import Foundation
import SwiftASN1
public import WebAuthn
import X509

extension ServerConfiguration {
    /// Reads and verifies the FIDO Metadata Service BLOB that `policy.metadata` names, as the relying party's
    /// metadata policy; nil when none is configured. Pass the result to ``PasskeyService`` as `metadata`. (This is
    /// asynchronous because certificate path validation is; the service's initializer is not.)
    ///
    /// Every problem with the BLOB as a whole is a ``ConfigurationError`` naming the field: a file that cannot be
    /// read, a root that is not PEM, a BLOB that is malformed, whose signing chain does not reach the roots at `time`,
    /// or that is stale (unless `policy.metadata.allowStale`). A problem in one entry is not: that entry is set aside
    /// (``MetadataBLOB/unusableEntries``, which ``PasskeyService`` logs at start) and its model refused.
    public func loadMetadata(at time: Date = Date()) async throws(ConfigurationError) -> MetadataPolicy? {
        guard let settings = policy.metadata else { return nil }
        var roots = [Certificate]()
        for (index, path) in settings.rootCertificates.enumerated() {
            roots += try Self.pemCertificates(at: path, field: "policy.metadata.rootCertificates[\(index)]")
        }
        let limits = MetadataBLOB.Limits()
        guard let handle = FileHandle(forReadingAtPath: settings.blob),
            let data = try? handle.read(upToCount: limits.maximumSize + 1)
        else {
            throw ConfigurationError(
                field: "policy.metadata.blob",
                "names a file that cannot be read: \(settings.blob)"
            )
        }
        try? handle.close()
        // A BLOB saved by an editor may end with a line break, which is no part of the JWS.
        let bytes = Array(data).reversed().drop { $0 == 0x0A || $0 == 0x0D || $0 == 0x20 }.reversed()
        do {
            let blob = try await MetadataBLOB(
                jws: Array(bytes),
                rootCertificates: roots,
                at: time,
                allowStale: settings.allowStale,
                limits: limits
            )
            return MetadataPolicy(blob: blob, requireEntry: settings.requireEntry, allowStale: settings.allowStale)
        } catch {
            let hint = error.code == .metadataStale ? " (or set policy.metadata.allowStale)" : ""
            throw ConfigurationError(field: "policy.metadata.blob", "(\(settings.blob)) \(error.reason)\(hint)")
        }
    }

    /// The certificates of a PEM file, for a field that names one.
    static func pemCertificates(at path: String, field: String) throws(ConfigurationError) -> [Certificate] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigurationError(field: field, "names a file that cannot be read: \(path)")
        }
        guard
            let certificates = try? PEMDocument.parseMultiple(pemString: text).map({
                try Certificate(pemDocument: $0)
            }), !certificates.isEmpty
        else {
            throw ConfigurationError(field: field, "is not a PEM certificate file: \(path)")
        }
        return certificates
    }
}
