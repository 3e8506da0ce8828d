import Foundation
import PasskeyStorage
import WebAuthn

/// A stored passkey as the API returns it (never the public key or attestation data).
struct CredentialResponse: Codable, Sendable, Equatable {
    let credentialId: String
    let userId: String
    let name: String
    let status: String
    let createdAt: Date
    let lastUsedAt: Date?
    let aaguid: String
    let authenticatorName: String?
    let backupEligible: Bool
    let backupState: Bool
    /// `synced` when backup-eligible, else `device-bound`.
    let kind: String
    let transports: [String]
    let attestationFormat: String
    let attestationType: String
    let attestationTrusted: Bool
    let algorithm: String
    /// Created after the person's identity was verified, by this run.
    let identityVerified: Bool
    let workflowRunId: String?
    /// Only in the answer of `complete` for an attempt created with `finalize: "explicit"`: the token the backend
    /// presents to finalize or abort it (the app hands it to its backend).
    var finalizeToken: String? = nil

    /// - Parameter metadata: the server's FIDO metadata, for the authenticator's name.
    init(_ row: CredentialRecordRow, metadata: MetadataBLOB?) {
        credentialId = Base64URL.encode(row.id)
        userId = row.userID
        name = row.name
        status = row.status.rawValue
        createdAt = row.createdAt
        lastUsedAt = row.lastUsedAt
        aaguid = row.aaguid
        authenticatorName = AuthenticatorNames.name(aaguid: row.aaguid, metadata: metadata)
        backupEligible = row.backupEligible
        backupState = row.backupState
        kind = row.backupEligible ? "synced" : "device-bound"
        transports = row.transports
        attestationFormat = row.attestationFormat
        attestationType = row.attestationType
        attestationTrusted = row.attestationTrusted
        algorithm = COSEAlgorithmIdentifier(rawValue: row.algorithm).name
        identityVerified = row.workflowRunID != nil
        workflowRunId = row.workflowRunID
    }
}
