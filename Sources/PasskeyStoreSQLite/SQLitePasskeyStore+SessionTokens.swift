public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: SessionTokenStore {
    public func currentSigningKey(
        creatingIfNone candidate: SessionSigningKey
    ) async throws(StoreError) -> SessionSigningKey {
        try await connection.session { db in
            // The unique `is_current` leaves the insert nothing to do when a current key exists.
            try db.execute(
                """
                INSERT INTO session_signing_keys (\(SigningKeyRows.columns), is_current)
                VALUES (?, ?, ?, ?, NULL, NULL, 1) ON CONFLICT DO NOTHING
                """,
                SigningKeyRows.binds(candidate)
            )
            guard
                let row = try db.rows(
                    "SELECT \(SigningKeyRows.columns) FROM session_signing_keys WHERE is_current = 1"
                ).first
            else {
                throw StoreError(.corrupt, "No current signing key right after inserting one.")
            }
            return try SigningKeyRows.decode(row)
        }
    }

    public func rotateSigningKey(
        to key: SessionSigningKey,
        retiredKeyPublishedUntil: Date
    ) async throws(StoreError) -> SessionSigningKey? {
        try await connection.session { db in
            let retired = try db.rows(
                """
                UPDATE session_signing_keys SET is_current = NULL, retired_at = ?1, published_until = ?2
                WHERE is_current = 1 RETURNING \(SigningKeyRows.columns)
                """,
                [Bind.date(key.createdAt), Bind.date(retiredKeyPublishedUntil)]
            ).first.map(SigningKeyRows.decode)
            try db.execute(
                """
                INSERT INTO session_signing_keys (\(SigningKeyRows.columns), is_current)
                VALUES (?, ?, ?, ?, NULL, NULL, 1)
                """,
                SigningKeyRows.binds(key)
            )
            return retired
        }
    }

    public func publishedSigningKeys(at time: Date) async throws(StoreError) -> [SessionSigningKey] {
        try await connection.session { db in
            try db.rows(
                """
                SELECT \(SigningKeyRows.columns) FROM session_signing_keys
                WHERE is_current = 1 OR published_until > ? ORDER BY is_current IS NULL, created_at DESC, id DESC
                """,
                [Bind.date(time)]
            ).map(SigningKeyRows.decode)
        }
    }

    public func createRefreshTokenFamily(
        _ family: RefreshTokenFamily,
        firstToken: RefreshToken
    ) async throws(StoreError) {
        // One transaction: the foreign key refuses a missing user, the primary keys a family or token in use.
        try await connection.session { db in
            try db.execute(
                "INSERT INTO refresh_token_families (\(FamilyRows.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                FamilyRows.binds(family)
            )
            try db.execute(
                "INSERT INTO refresh_tokens (token_hash, family_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                [
                    Bind.bytes(firstToken.tokenHash), Bind.text(family.id), Bind.date(firstToken.createdAt),
                    Bind.date(firstToken.expiresAt),
                ]
            )
        }
    }

    public func rotateRefreshToken(
        hash: [UInt8],
        nextHash: [UInt8],
        nextExpiresAt: Date,
        at time: Date
    ) async throws(StoreError) -> RefreshTokenRotation {
        try await connection.session { db in
            // The compare-and-set: only an unused, live token of a live family is marked used. Write transactions are
            // serialised (BEGIN IMMEDIATE), so a racing rotation of the same token finds it used.
            let claimed = try db.rows(
                """
                UPDATE refresh_tokens SET used_at = ?2
                WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2 AND family_id IN (
                    SELECT id FROM refresh_token_families WHERE revoked_at IS NULL AND expires_at > ?2
                )
                RETURNING family_id
                """,
                [Bind.bytes(hash), Bind.date(time)]
            )
            let token = try db.rows(
                "SELECT family_id, expires_at, used_at FROM refresh_tokens WHERE token_hash = ?",
                [Bind.bytes(hash)]
            ).first
            guard let token else { return .unknown }
            let reader = RowReader(row: token, table: "refresh_tokens")
            let familyID = try reader.text("family_id")
            guard
                var family = try db.rows(
                    "SELECT \(FamilyRows.columns) FROM refresh_token_families WHERE id = ?",
                    [Bind.text(familyID)]
                ).first.map(FamilyRows.decode)
            else { return .unknown }
            if !claimed.isEmpty {
                let expiry = min(nextExpiresAt, family.expiresAt)
                try db.execute(
                    "INSERT INTO refresh_tokens (token_hash, family_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                    [Bind.bytes(nextHash), Bind.text(familyID), Bind.date(time), Bind.date(expiry)]
                )
                return .rotated(family, nextExpiresAt: expiry)
            }
            if family.revokedAt != nil { return .revoked(family) }
            if try reader.optionalDate("used_at") != nil {
                try db.execute(
                    "UPDATE refresh_token_families SET revoked_at = ?2, revocation = 'reuse' WHERE id = ?1",
                    [Bind.text(familyID), Bind.date(time)]
                )
                family.revokedAt = time
                family.revocation = .reuse
                return .reused(family)
            }
            return .expired(family)
        }
    }

    public func revokeRefreshTokenFamily(
        tokenHash hash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> (family: RefreshTokenFamily, revokedNow: Bool)? {
        try await connection.session { db in
            let revoked = try db.rows(
                """
                UPDATE refresh_token_families SET revoked_at = ?2, revocation = 'revoked'
                WHERE revoked_at IS NULL AND id = (SELECT family_id FROM refresh_tokens WHERE token_hash = ?1)
                RETURNING id
                """,
                [Bind.bytes(hash), Bind.date(time)]
            )
            return try db.rows(
                """
                SELECT \(FamilyRows.columns) FROM refresh_token_families
                WHERE id = (SELECT family_id FROM refresh_tokens WHERE token_hash = ?)
                """,
                [Bind.bytes(hash)]
            ).first.map { row throws(StoreError) in (try FamilyRows.decode(row), !revoked.isEmpty) }
        }
    }

    public func refreshTokenFamilies(userID: String) async throws(StoreError) -> [RefreshTokenFamily] {
        try await connection.session { db in
            try db.rows(
                """
                SELECT \(FamilyRows.columns) FROM refresh_token_families WHERE user_id = ?
                ORDER BY created_at DESC, id DESC
                """,
                [Bind.text(userID)]
            ).map(FamilyRows.decode)
        }
    }
}

enum SigningKeyRows {
    static let columns = "id, private_key, public_key, created_at, retired_at, published_until"

    static func decode(_ row: Row) throws(StoreError) -> SessionSigningKey {
        let reader = RowReader(row: row, table: "session_signing_keys")
        return SessionSigningKey(
            id: try reader.text("id"),
            privateKey: try reader.bytes("private_key"),
            publicKey: try reader.bytes("public_key"),
            createdAt: try reader.date("created_at"),
            retiredAt: try reader.optionalDate("retired_at"),
            publishedUntil: try reader.optionalDate("published_until")
        )
    }

    /// The binds of the first four columns: a key is inserted current (not retired, not yet unpublished).
    static func binds(_ key: SessionSigningKey) -> [SQLValue] {
        [Bind.text(key.id), Bind.bytes(key.privateKey), Bind.bytes(key.publicKey), Bind.date(key.createdAt)]
    }
}

enum FamilyRows {
    static let columns = """
        id, user_id, auth_time, methods, assurance, created_at, expires_at, revoked_at, revocation
        """

    static func decode(_ row: Row) throws(StoreError) -> RefreshTokenFamily {
        let reader = RowReader(row: row, table: "refresh_token_families")
        let revocation = try reader.optionalText("revocation").map { text throws(StoreError) in
            guard let revocation = RefreshTokenFamily.Revocation(rawValue: text) else {
                throw StoreError(.corrupt, "A stored refresh_token_families row has an unknown revocation '\(text)'.")
            }
            return revocation
        }
        return RefreshTokenFamily(
            id: try reader.text("id"),
            userID: try reader.text("user_id"),
            authTime: try reader.date("auth_time"),
            methods: try reader.text("methods").split(separator: " ").map(String.init),
            assurance: try reader.text("assurance"),
            createdAt: try reader.date("created_at"),
            expiresAt: try reader.date("expires_at"),
            revokedAt: try reader.optionalDate("revoked_at"),
            revocation: revocation
        )
    }

    static func binds(_ family: RefreshTokenFamily) -> [SQLValue] {
        [
            Bind.text(family.id), Bind.text(family.userID), Bind.date(family.authTime),
            Bind.text(family.methods.joined(separator: " ")), Bind.text(family.assurance),
            Bind.date(family.createdAt), Bind.date(family.expiresAt), Bind.date(family.revokedAt),
            Bind.text(family.revocation?.rawValue),
        ]
    }
}
