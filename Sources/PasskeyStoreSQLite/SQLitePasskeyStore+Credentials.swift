public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: CredentialStore {
    public func credential(id: [UInt8]) async throws(StoreError) -> CredentialRecordRow? {
        try await connection.session { db in try Self.credential(db, id: id) }
    }

    public func credentials(userID: String) async throws(StoreError) -> [CredentialRecordRow] {
        try await connection.session { db in try Self.credentials(db, userID: userID) }
    }

    public func renameCredential(
        id: [UInt8],
        name: String,
        nameKey: String,
        at time: Date
    ) async throws(StoreError)
        -> CredentialRecordRow?
    {
        try await connection.session { db in
            guard var credential = try Self.credential(db, id: id), credential.status != .revoked else {
                return nil
            }
            let live = try Self.liveCredentials(
                db,
                userID: credential.userID,
                nameKey: nameKey,
                at: time,
                excluding: id
            )
            guard live.withName == 0 else {
                throw StoreError(.nameTaken, "Another credential of this user is named '\(name)'.")
            }
            try db.execute(
                "UPDATE credentials SET name = ?, name_key = ? WHERE id = ?",
                [Bind.text(name), Bind.text(nameKey), Bind.bytes(id)]
            )
            credential.name = name
            credential.nameKey = nameKey
            return credential
        }
    }

    public func revokeCredential(id: [UInt8], at time: Date) async throws(StoreError) -> CredentialRecordRow? {
        // One conditional UPDATE: of two racing revocations, one returns the row, and ends the user's flows.
        try await connection.session { db in
            guard
                let revoked = try db.rows(
                    """
                    UPDATE credentials SET status = 'revoked', revoked_at = ? WHERE id = ? AND status != 'revoked'
                    RETURNING \(CredentialRows.columns)
                    """,
                    [Bind.date(time), Bind.bytes(id)]
                ).first.map(CredentialRows.decode)
            else { return nil }
            try Self.endFlowsInFlight(db, userID: revoked.userID, at: time)
            return revoked
        }
    }

    public func userWithCredentials(id: String) async throws(StoreError) -> UserCredentials? {
        try await connection.session { db in
            guard let user = try Self.user(db, where: "id = ?", Bind.text(id)) else { return nil }
            return UserCredentials(user: user, credentials: try Self.credentials(db, userID: id))
        }
    }

    public func credentialWithOwner(id: [UInt8]) async throws(StoreError) -> CredentialOwner? {
        try await connection.session { db in
            guard let credential = try Self.credential(db, id: id),
                let owner = try Self.user(db, where: "id = ?", Bind.text(credential.userID))
            else { return nil }
            return CredentialOwner(credential: credential, owner: owner)
        }
    }

    /// `INDEXED BY`: without it, checking whether the partial index `credentials_active_name` applies makes SQLite
    /// note the bound user id, and prepare the statement again for every other id.
    static func credentials(_ db: Database, userID: String) throws -> [CredentialRecordRow] {
        try db.rows(
            """
            SELECT \(CredentialRows.columns) FROM credentials INDEXED BY credentials_by_user
            WHERE user_id = ? AND status != 'revoked' ORDER BY created_at, id
            """,
            [Bind.text(userID)]
        ).map(CredentialRows.decode)
    }

    static func credential(_ db: Database, id: [UInt8]) throws -> CredentialRecordRow? {
        try db.rows("SELECT \(CredentialRows.columns) FROM credentials WHERE id = ?", [Bind.bytes(id)])
            .first.map(CredentialRows.decode)
    }

    /// How many of the user's credentials are live at `time` (active, or reserved until after `time`), and how
    /// many of those have the name key; `excluding` one credential.
    static func liveCredentials(
        _ db: Database,
        userID: String,
        nameKey: String,
        at time: Date,
        excluding excluded: [UInt8]? = nil
    ) throws -> (count: Int, withName: Int) {
        let rows = try db.rows(
            """
            SELECT count(*) AS live, coalesce(sum(name_key = ?), 0) AS with_name FROM credentials
            WHERE user_id = ? AND (status = 'active' OR (status = 'reserved' AND reserved_until > ?))
            AND (? IS NULL OR id != ?)
            """,
            [Bind.text(nameKey), Bind.text(userID), Bind.date(time), Bind.bytes(excluded), Bind.bytes(excluded)]
        )
        guard let row = rows.first else {
            throw StoreError(.corrupt, "The database returned no count of the user's credentials.")
        }
        let reader = RowReader(row: row, table: "credentials")
        return (try reader.int("live"), try reader.int("with_name"))
    }
}
