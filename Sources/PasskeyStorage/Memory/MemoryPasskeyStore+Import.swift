extension MemoryPasskeyStore: StoreImport {
    public func importUsers(_ entries: [UserCredentials]) throws(StoreError) {
        // Checked in full before anything is inserted: the import is all or nothing.
        var handles = Set(users.values.map(\.handle))
        var names = Set(users.values.map(\.name))
        var ids = Set(users.keys)
        var credentialIDs = Set(credentialsByID.keys)
        var nameKeys = Set(credentialsByID.values.filter { $0.status != .revoked }.map { [$0.userID, $0.nameKey] })
        for entry in entries {
            let user = entry.user
            guard ids.insert(user.id).inserted else {
                throw StoreError(.duplicate, "A user with id \(user.id) exists.")
            }
            guard handles.insert(user.handle).inserted else {
                throw StoreError(.duplicate, "Another user has this user handle.")
            }
            guard names.insert(user.name).inserted else { throw StoreError.userNameTaken }
            for credential in entry.credentials {
                guard credential.userID == user.id else {
                    throw StoreError(.notFound, "A credential of user \(user.id) names user \(credential.userID).")
                }
                guard credentialIDs.insert(credential.id).inserted else {
                    throw StoreError(.credentialExists, "This credential is registered already.")
                }
                guard credential.status == .revoked || nameKeys.insert([user.id, credential.nameKey]).inserted else {
                    throw StoreError(.nameTaken, "Another credential of this user is named '\(credential.name)'.")
                }
            }
        }
        for entry in entries {
            users[entry.user.id] = entry.user
            for credential in entry.credentials { credentialsByID[credential.id] = credential }
        }
    }
}
