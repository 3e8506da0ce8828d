import PasskeyStorage

extension FailingStore {
    func importUsers(_ users: [UserCredentials]) async throws(StoreError) {
        try check()
        try await base.importUsers(users)
    }
}
