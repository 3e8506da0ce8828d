public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: CredentialStore {
    public func credential(id: [UInt8]) async throws(StoreError) -> CredentialRecordRow? {
        try await rows(ReadCredential(id: id), doing: "read the credential").first.map { row throws(StoreError) in
            try CredentialRecordRow(row)
        }
    }

    public func credentials(userID: String) async throws(StoreError) -> [CredentialRecordRow] {
        var credentials: [CredentialRecordRow] = []
        for row in try await rows(ListCredentials(userID: userID), doing: "list the user's credentials") {
            credentials.append(try CredentialRecordRow(row))
        }
        return credentials
    }

    public func renameCredential(
        id: [UInt8],
        name: String,
        nameKey: String,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow? {
        try await transaction(doing: "rename the credential") { connection throws -> CredentialRecordRow? in
            guard let userID = try await Self.owner(ofCredential: id, on: connection) else { return nil }
            // A user deleted meanwhile took the credential along.
            guard try await Self.lockUser(userID, on: connection) else { return nil }
            let locked = try await connection.rows(
                "SELECT status FROM credentials WHERE id = \(id.bytea) AND status <> 'revoked' FOR UPDATE"
            )
            guard !locked.isEmpty else { return nil }
            let taken = try await connection.rows(
                """
                SELECT 1 FROM credentials
                WHERE user_id = \(userID) AND id <> \(id.bytea) AND name_key = \(nameKey)
                    AND (status = 'active' OR (status = 'reserved' AND reserved_until > \(time)))
                """
            )
            guard taken.isEmpty else {
                throw StoreError(.nameTaken, "Another credential of this user is named '\(name)'.")
            }
            return try await connection.rows(
                """
                UPDATE credentials SET name = \(name), name_key = \(nameKey) WHERE id = \(id.bytea)
                RETURNING \(unescaped: Columns.list(Columns.credential))
                """
            ).first.map { row throws(StoreError) in try CredentialRecordRow(row) }
        }
    }

    public func revokeCredential(id: [UInt8], at time: Date) async throws(StoreError) -> CredentialRecordRow? {
        // The user's lock first, as every insert of a credential takes it; then the revocation and, when it revoked,
        // the end of the user's flows in flight.
        try await transaction(doing: "revoke the credential") { connection throws -> CredentialRecordRow? in
            guard let owner = try await Self.owner(ofCredential: id, on: connection),
                try await Self.lockUser(owner, on: connection),
                let row = try await connection.rows(
                    """
                    UPDATE credentials SET status = 'revoked', revoked_at = \(time)
                    WHERE id = \(id.bytea) AND status <> 'revoked'
                    RETURNING \(unescaped: Columns.list(Columns.credential))
                    """
                ).first
            else { return nil }
            _ = try await Self.endFlowsInFlight(ofUser: owner, at: time, on: connection)
            return try CredentialRecordRow(row)
        }
    }

    public func userWithCredentials(id: String) async throws(StoreError) -> UserCredentials? {
        let rows = try await rows(UserWithCredentials(id: id), doing: "read the user and their credentials")
        guard let first = rows.first else { return nil }
        let user = try UserRecord(first, prefix: UserWithCredentials.userPrefix)
        var credentials: [CredentialRecordRow] = []
        for row in rows {
            // A user without credentials is one row whose credential columns are null.
            guard try RowReader(row, record: "credential").optionalBytes("id") != nil else { continue }
            credentials.append(try CredentialRecordRow(row))
        }
        return UserCredentials(user: user, credentials: credentials)
    }

    public func credentialWithOwner(id: [UInt8]) async throws(StoreError) -> CredentialOwner? {
        guard
            let row = try await rows(CredentialWithOwner(id: id), doing: "read the credential and its owner").first
        else { return nil }
        return CredentialOwner(
            credential: try CredentialRecordRow(row),
            owner: try UserRecord(row, prefix: CredentialWithOwner.ownerPrefix)
        )
    }

    // MARK: Helpers

    /// Takes the user's row lock for the rest of the transaction. False when there is no such user.
    static func lockUser(_ userID: String, on connection: PostgresConnection) async throws -> Bool {
        try await !connection.rows(LockUser(id: userID)).isEmpty
    }

    static func owner(ofCredential id: [UInt8], on connection: PostgresConnection) async throws -> String? {
        guard let row = try await connection.rows("SELECT user_id FROM credentials WHERE id = \(id.bytea)").first else {
            return nil
        }
        return try RowReader(row, record: "credential")("user_id")
    }
}

struct ReadCredential: StoreStatement {
    static let sql = "SELECT \(Columns.list(Columns.credential)) FROM credentials WHERE id = $1"
    let id: [UInt8]

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(id.bytea)
        return binds
    }
}

/// A user's credentials that are not revoked, in the order of the contract.
struct ListCredentials: StoreStatement {
    static let sql = """
        SELECT \(Columns.list(Columns.credential)) FROM credentials
        WHERE user_id = $1 AND status <> 'revoked'
        ORDER BY created_at, id
        """
    let userID: String

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(userID)
        return binds
    }
}

/// Takes the user's row lock for the rest of the transaction; no row when there is no such user.
struct LockUser: StoreStatement {
    static let sql = "SELECT 1 FROM users WHERE id = $1 FOR UPDATE"
    let id: String

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(id)
        return binds
    }
}

/// The user and their credentials that are not revoked, one row each, ordered as ``ListCredentials`` orders them;
/// one row with null credential columns for a user without any, none for an unknown user.
struct UserWithCredentials: StoreStatement {
    /// What the user's columns are prefixed with, apart from the credentials' columns of the same names.
    static let userPrefix = "owner_"
    static let sql = """
        SELECT \(Columns.list(Columns.user, of: "u", as: userPrefix)), \(Columns.list(Columns.credential, of: "c"))
        FROM users AS u LEFT JOIN credentials AS c ON c.user_id = u.id AND c.status <> 'revoked'
        WHERE u.id = $1
        ORDER BY c.created_at, c.id
        """
    let id: String

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(id)
        return binds
    }
}

/// The credential with its owner's columns beside its own; no row for an unknown credential.
struct CredentialWithOwner: StoreStatement {
    static let ownerPrefix = "owner_"
    static let sql = """
        SELECT \(Columns.list(Columns.credential, of: "c")), \(Columns.list(Columns.user, of: "u", as: ownerPrefix))
        FROM credentials AS c JOIN users AS u ON u.id = c.user_id
        WHERE c.id = $1
        """
    let id: [UInt8]

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(id.bytea)
        return binds
    }
}
