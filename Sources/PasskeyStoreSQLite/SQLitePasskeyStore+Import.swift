public import PasskeyStorage

extension SQLitePasskeyStore: StoreImport {
    public func importUsers(_ entries: [UserCredentials]) async throws(StoreError) {
        // One operation, so one transaction: the constraints refuse a record in use, and then nothing is inserted.
        for entry in entries {
            for credential in entry.credentials where credential.userID != entry.user.id {
                throw StoreError(.notFound, "A credential of user \(entry.user.id) names user \(credential.userID).")
            }
        }
        let users = entries.map { UserRows.binds($0.user) }
        var credentials: [[SQLValue]] = []
        for credential in entries.lazy.flatMap(\.credentials) {
            credentials.append(try CredentialRows.binds(credential))
        }
        try await connection.session { [credentials] db in
            for binds in users {
                try db.execute("INSERT INTO users (\(UserRows.columns)) VALUES (?, ?, ?, ?, ?)", binds)
            }
            for binds in credentials {
                try db.execute(
                    "INSERT INTO credentials (\(CredentialRows.columns)) VALUES (\(CredentialRows.placeholders))",
                    binds
                )
            }
        }
    }
}
