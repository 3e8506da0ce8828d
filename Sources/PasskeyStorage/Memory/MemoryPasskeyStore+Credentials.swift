public import Foundation

extension MemoryPasskeyStore: CredentialStore {
    public func credential(id: [UInt8]) -> CredentialRecordRow? { credentialsByID[id] }

    public func credentials(userID: String) -> [CredentialRecordRow] {
        credentialsByID.values.filter { $0.userID == userID && $0.status != .revoked }.sorted(by: Self.oldestFirst)
    }

    public func renameCredential(
        id: [UInt8],
        name: String,
        nameKey: String,
        at time: Date
    ) throws(StoreError) -> CredentialRecordRow? {
        guard var credential = credentialsByID[id], credential.status != .revoked else { return nil }
        guard
            !liveCredentials(of: credential.userID, at: time).contains(where: { $0.id != id && $0.nameKey == nameKey })
        else {
            throw StoreError(.nameTaken, "Another credential of this user is named '\(name)'.")
        }
        credential.name = name
        credential.nameKey = nameKey
        credentialsByID[id] = credential
        return credential
    }

    public func revokeCredential(id: [UInt8], at time: Date) -> CredentialRecordRow? {
        guard var credential = credentialsByID[id], credential.status != .revoked else { return nil }
        credential.status = .revoked
        credential.revokedAt = time
        credentialsByID[id] = credential
        endFlowsInFlight(ofUser: credential.userID, at: time)
        return credential
    }

    public func userWithCredentials(id: String) -> UserCredentials? {
        guard let user = user(id: id) else { return nil }
        return UserCredentials(user: user, credentials: credentials(userID: id))
    }

    public func credentialWithOwner(id: [UInt8]) -> CredentialOwner? {
        guard let credential = credential(id: id), let owner = user(id: credential.userID) else { return nil }
        return CredentialOwner(credential: credential, owner: owner)
    }

    /// Oldest first; credentials created at the same time in the byte order of their ids, as the SQL adapters
    /// order them.
    fileprivate static func oldestFirst(_ first: CredentialRecordRow, _ second: CredentialRecordRow) -> Bool {
        if first.createdAt != second.createdAt { return first.createdAt < second.createdAt }
        return first.id.lexicographicallyPrecedes(second.id)
    }

    func liveCredentials(of userID: String, at time: Date) -> [CredentialRecordRow] {
        credentialsByID.values.filter { $0.userID == userID && $0.isLive(at: time) }
    }
}
