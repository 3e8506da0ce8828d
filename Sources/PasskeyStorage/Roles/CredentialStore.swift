public import Foundation

/// The users' passkeys once they are on record, and the reads that join them with their users. Part of
/// ``PasskeyStore``; a credential is inserted by the ceremony that registers it (``CeremonyStore``).
public protocol CredentialStore: Sendable {
    func credential(id: [UInt8]) async throws(StoreError) -> CredentialRecordRow?
    /// The user's credentials that are not revoked, oldest first: by `createdAt`, and those created at the same
    /// time in the byte order of their ids (shorter first when one is a prefix of the other).
    func credentials(userID: String) async throws(StoreError) -> [CredentialRecordRow]
    /// Renames a credential. Fails with `.nameTaken` when another of the user's live credentials has the same
    /// name key (names compare case-insensitively after normalisation, see ``CredentialRecordRow/nameKey``).
    func renameCredential(
        id: [UInt8],
        name: String,
        nameKey: String,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow?
    /// Marks a credential revoked and, in the same transaction, ends the in-flight flows of its user: a revocation is
    /// a reset of the user (see ``PasskeyStore``). Returns the revoked record, or nil when it was not live (and
    /// nothing changed).
    func revokeCredential(id: [UInt8], at time: Date) async throws(StoreError) -> CredentialRecordRow?

    // MARK: One round trip where a request needs two

    /// The user with their credentials that are not revoked (as ``credentials(userID:)`` lists them), read in one
    /// operation; nil when there is no such user.
    func userWithCredentials(id: String) async throws(StoreError) -> UserCredentials?
    /// The credential with the user it belongs to, read in one operation; nil when there is no such credential.
    func credentialWithOwner(id: [UInt8]) async throws(StoreError) -> CredentialOwner?
}
