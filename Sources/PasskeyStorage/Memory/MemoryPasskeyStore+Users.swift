import Foundation

extension MemoryPasskeyStore: UserStore {
    public func createUserIfAbsent(_ user: UserRecord) throws(StoreError) -> UserRecord {
        if let existing = users[user.id] { return existing }
        guard !users.values.contains(where: { $0.handle == user.handle }) else {
            throw StoreError(.duplicate, "Another user has this user handle.")
        }
        guard self.user(name: user.name) == nil else { throw StoreError.userNameTaken }
        users[user.id] = user
        return user
    }

    public func user(id: String) -> UserRecord? { users[id] }
    public func user(name: String) -> UserRecord? { users.values.first { $0.name == name } }

    public func deleteUser(id: String) -> Bool {
        guard users.removeValue(forKey: id) != nil else { return false }
        credentialsByID = credentialsByID.filter { $0.value.userID != id }
        flows = flows.filter { $0.value.userID != id }
        dropOrphanedCrossPlatformSessions()
        webSessionsByID = webSessionsByID.filter { $0.value.userID != id }
        workflowRunsByID = workflowRunsByID.filter { $0.value.userID != id }
        recoveryAttemptsByID = recoveryAttemptsByID.filter { $0.value.userID != id }
        refreshTokenFamiliesByID = refreshTokenFamiliesByID.filter { $0.value.userID != id }
        refreshTokensByHash = refreshTokensByHash.filter { refreshTokenFamiliesByID[$0.value.familyID] != nil }
        return true
    }

    public func users(matching query: String?, after: String?, limit: Int, order: UserOrder) -> [UserSummary] {
        guard limit > 0 else { return [] }
        let needle = query.flatMap { $0.isEmpty ? nil : Self.asciiLowercased($0) }
        let key: (UserRecord) -> String = order == .name ? { $0.name } : { $0.id }
        let page = users.values.filter { user in
            if let after, !after.utf8.lexicographicallyPrecedes(key(user).utf8) { return false }
            guard let needle else { return true }
            return [user.id, user.name, user.displayName].contains { Self.asciiLowercased($0).contains(needle) }
        }
        .sorted { key($0).utf8.lexicographicallyPrecedes(key($1).utf8) }
        .prefix(limit)
        return page.map { user in
            UserSummary(
                user: user,
                activeCredentials: credentialsByID.values.count { $0.userID == user.id && $0.status == .active }
            )
        }
    }

    /// The text's UTF-8 bytes with ASCII capitals made small, as the SQL adapters' `lower()` does. Searching
    /// bytes rather than characters matches what the databases do, too.
    fileprivate static func asciiLowercased(_ text: String) -> [UInt8] {
        text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
    }
}
