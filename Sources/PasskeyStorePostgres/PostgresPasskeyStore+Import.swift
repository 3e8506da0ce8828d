public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: StoreImport {
    /// Rows per INSERT statement: well under PostgreSQL's 65,535 parameters a statement.
    static let importRowsPerStatement = 500

    public func importUsers(_ entries: [UserCredentials]) async throws(StoreError) {
        for entry in entries {
            for credential in entry.credentials where credential.userID != entry.user.id {
                throw StoreError(.notFound, "A credential of user \(entry.user.id) names user \(credential.userID).")
            }
        }
        let users = entries.map(\.user)
        let credentials = entries.flatMap(\.credentials)
        // One transaction: the constraints refuse a record in use, and then nothing is inserted.
        try await transaction(doing: "import users") { connection in
            for start in stride(from: 0, to: users.count, by: Self.importRowsPerStatement) {
                let chunk = users[start..<min(start + Self.importRowsPerStatement, users.count)]
                _ = try await connection.rows(Self.insert(chunk))
            }
            for start in stride(from: 0, to: credentials.count, by: Self.importRowsPerStatement) {
                let chunk = credentials[start..<min(start + Self.importRowsPerStatement, credentials.count)]
                _ = try await connection.rows(Self.insert(chunk))
            }
        }
    }

    private static func insert(_ users: ArraySlice<UserRecord>) -> PostgresQuery {
        var query = PostgresQuery.StringInterpolation(
            literalCapacity: 64 * users.count,
            interpolationCount: 5 * users.count
        )
        query.appendLiteral("INSERT INTO users (id, handle, name, display_name, created_at) VALUES ")
        for (index, user) in users.enumerated() {
            query.appendLiteral(index == 0 ? "(" : ", (")
            query.appendInterpolation(user.id)
            query.appendLiteral(", ")
            query.appendInterpolation(user.handle.bytea)
            query.appendLiteral(", ")
            query.appendInterpolation(user.name)
            query.appendLiteral(", ")
            query.appendInterpolation(user.displayName)
            query.appendLiteral(", ")
            query.appendInterpolation(user.createdAt)
            query.appendLiteral(")")
        }
        return PostgresQuery(stringInterpolation: query)
    }

    private static func insert(_ credentials: ArraySlice<CredentialRecordRow>) -> PostgresQuery {
        var query = PostgresQuery.StringInterpolation(
            literalCapacity: 256 * credentials.count,
            interpolationCount: Columns.credential.count * credentials.count
        )
        query.appendLiteral("INSERT INTO credentials (\(Columns.list(Columns.credential))) VALUES ")
        for (index, credential) in credentials.enumerated() {
            query.appendLiteral(index == 0 ? "(" : ", (")
            query.appendInterpolation(credential.id.bytea)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.userID)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.publicKey.bytea)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.algorithm)
            query.appendLiteral(", ")
            query.appendInterpolation(Int64(credential.signCount))
            query.appendLiteral(", ")
            query.appendInterpolation(credential.aaguid)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.attestationFormat)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.attestationType)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.attestationTrusted)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.transports)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.backupEligible)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.backupState)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.userVerified)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.name)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.nameKey)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.status.rawValue)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.reservedUntil)
            query.appendLiteral("::timestamptz, ")
            query.appendInterpolation(credential.flowID)
            query.appendLiteral("::text, ")
            query.appendInterpolation(credential.createdAt)
            query.appendLiteral(", ")
            query.appendInterpolation(credential.lastUsedAt)
            query.appendLiteral("::timestamptz, ")
            query.appendInterpolation(credential.revokedAt)
            query.appendLiteral("::timestamptz, ")
            query.appendInterpolation(credential.workflowRunID)
            query.appendLiteral("::text, ")
            query.appendInterpolation(credential.consoleEnrolled)
            query.appendLiteral(")")
        }
        return PostgresQuery(stringInterpolation: query)
    }
}
