public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: SessionTokenStore {
    public func currentSigningKey(
        creatingIfNone candidate: SessionSigningKey
    ) async throws(StoreError) -> SessionSigningKey {
        try await transaction(doing: "read the current signing key") { connection in
            // The unique `is_current` leaves the insert nothing to do when a current key exists, and makes a process
            // that races another one's insert wait for it and then do nothing.
            try await connection.rows(
                """
                INSERT INTO session_signing_keys (\(unescaped: Columns.list(Columns.signingKey)), is_current)
                VALUES (
                    \(candidate.id), \(candidate.privateKey.bytea), \(candidate.publicKey.bytea), \(candidate.createdAt),
                    NULL, NULL, true
                )
                ON CONFLICT DO NOTHING
                """
            )
            guard
                let row = try await connection.rows(
                    """
                    SELECT \(unescaped: Columns.list(Columns.signingKey)) FROM session_signing_keys
                    WHERE is_current
                    """
                ).first
            else {
                throw StoreError(.corrupt, "No current signing key right after inserting one.")
            }
            return try SessionSigningKey(row)
        }
    }

    public func rotateSigningKey(
        to key: SessionSigningKey,
        retiredKeyPublishedUntil: Date
    ) async throws(StoreError) -> SessionSigningKey? {
        try await transaction(doing: "rotate the signing key") { connection in
            let retired = try await connection.rows(
                """
                UPDATE session_signing_keys
                SET is_current = NULL, retired_at = \(key.createdAt), published_until = \(retiredKeyPublishedUntil)
                WHERE is_current RETURNING \(unescaped: Columns.list(Columns.signingKey))
                """
            ).first.map { row throws(StoreError) in try SessionSigningKey(row) }
            try await connection.rows(
                """
                INSERT INTO session_signing_keys (\(unescaped: Columns.list(Columns.signingKey)), is_current)
                VALUES (
                    \(key.id), \(key.privateKey.bytea), \(key.publicKey.bytea), \(key.createdAt), NULL, NULL, true
                )
                """
            )
            return retired
        }
    }

    public func publishedSigningKeys(at time: Date) async throws(StoreError) -> [SessionSigningKey] {
        var keys: [SessionSigningKey] = []
        for row in try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.signingKey)) FROM session_signing_keys
            WHERE is_current OR published_until > \(time)
            ORDER BY is_current IS NULL, created_at DESC, id COLLATE "C" DESC
            """,
            doing: "list the published signing keys"
        ) {
            keys.append(try SessionSigningKey(row))
        }
        return keys
    }

    public func createRefreshTokenFamily(
        _ family: RefreshTokenFamily,
        firstToken: RefreshToken
    ) async throws(StoreError) {
        // One statement: the foreign key refuses a missing user, the primary keys a family or token in use.
        _ = try await rows(
            """
            WITH family AS (
                INSERT INTO refresh_token_families (\(unescaped: Columns.list(Columns.refreshTokenFamily)))
                VALUES (
                    \(family.id), \(family.userID), \(family.authTime), \(family.methods.joined(separator: " ")),
                    \(family.assurance), \(family.createdAt), \(family.expiresAt), \(family.revokedAt)::timestamptz,
                    \(family.revocation?.rawValue)::text
                )
                RETURNING id
            )
            INSERT INTO refresh_tokens (token_hash, family_id, created_at, expires_at)
            SELECT \(firstToken.tokenHash.bytea), id, \(firstToken.createdAt), \(firstToken.expiresAt) FROM family
            """,
            doing: "start the token session"
        )
    }

    public func rotateRefreshToken(
        hash: [UInt8],
        nextHash: [UInt8],
        nextExpiresAt: Date,
        at time: Date
    ) async throws(StoreError) -> RefreshTokenRotation {
        try await transaction(doing: "rotate the refresh token") { connection in
            // The compare-and-set: only an unused, live token of a live family is marked used. A racing rotation of
            // the same token waits for this row's lock, then finds it used.
            let claimed = try await connection.rows(
                """
                UPDATE refresh_tokens SET used_at = \(time)
                WHERE token_hash = \(hash.bytea) AND used_at IS NULL AND expires_at > \(time) AND family_id IN (
                    SELECT id FROM refresh_token_families WHERE revoked_at IS NULL AND expires_at > \(time)
                )
                RETURNING family_id
                """
            )
            guard
                let token = try await connection.rows(
                    "SELECT family_id, used_at FROM refresh_tokens WHERE token_hash = \(hash.bytea)"
                ).first
            else { return .unknown }
            let read = RowReader(token, record: "refresh token")
            let familyID: String = try read("family_id")
            let usedAt: Date? = try read("used_at")
            guard
                let row = try await connection.rows(
                    """
                    SELECT \(unescaped: Columns.list(Columns.refreshTokenFamily)) FROM refresh_token_families
                    WHERE id = \(familyID) FOR UPDATE
                    """
                ).first
            else { return .unknown }
            var family = try RefreshTokenFamily(row)
            if !claimed.isEmpty {
                let expiry = min(nextExpiresAt, family.expiresAt)
                try await connection.rows(
                    """
                    INSERT INTO refresh_tokens (token_hash, family_id, created_at, expires_at)
                    VALUES (\(nextHash.bytea), \(familyID), \(time), \(expiry))
                    """
                )
                return .rotated(family, nextExpiresAt: expiry)
            }
            if family.revokedAt != nil { return .revoked(family) }
            if usedAt != nil {
                try await connection.rows(
                    """
                    UPDATE refresh_token_families SET revoked_at = \(time), revocation = 'reuse'
                    WHERE id = \(familyID) AND revoked_at IS NULL
                    """
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
        try await transaction(doing: "revoke the token session") { connection in
            let revoked = try await connection.rows(
                """
                UPDATE refresh_token_families SET revoked_at = \(time), revocation = 'revoked'
                WHERE revoked_at IS NULL
                    AND id = (SELECT family_id FROM refresh_tokens WHERE token_hash = \(hash.bytea))
                RETURNING id
                """
            )
            return try await connection.rows(
                """
                SELECT \(unescaped: Columns.list(Columns.refreshTokenFamily)) FROM refresh_token_families
                WHERE id = (SELECT family_id FROM refresh_tokens WHERE token_hash = \(hash.bytea))
                """
            ).first.map { row throws(StoreError) in (try RefreshTokenFamily(row), !revoked.isEmpty) }
        }
    }

    public func refreshTokenFamilies(userID: String) async throws(StoreError) -> [RefreshTokenFamily] {
        var families: [RefreshTokenFamily] = []
        for row in try await rows(
            """
            SELECT \(unescaped: Columns.list(Columns.refreshTokenFamily)) FROM refresh_token_families
            WHERE user_id = \(userID) ORDER BY created_at DESC, id COLLATE "C" DESC
            """,
            doing: "list the user's token sessions"
        ) {
            families.append(try RefreshTokenFamily(row))
        }
        return families
    }
}

extension Columns {
    static let signingKey = ["id", "private_key", "public_key", "created_at", "retired_at", "published_until"]
    static let refreshTokenFamily = [
        "id", "user_id", "auth_time", "methods", "assurance", "created_at", "expires_at", "revoked_at", "revocation",
    ]
}

extension SessionSigningKey {
    init(_ row: PostgresRow) throws(StoreError) {
        let read = RowReader(row, record: "signing key")
        self.init(
            id: try read("id"),
            privateKey: try read.bytes("private_key"),
            publicKey: try read.bytes("public_key"),
            createdAt: try read("created_at"),
            retiredAt: try read("retired_at"),
            publishedUntil: try read("published_until")
        )
    }
}

extension RefreshTokenFamily {
    init(_ row: PostgresRow) throws(StoreError) {
        let read = RowReader(row, record: "token session")
        let revocationText: String? = try read("revocation")
        let revocation = try revocationText.map { text throws(StoreError) in
            guard let revocation = Revocation(rawValue: text) else {
                throw read.corrupt("revocation", "is '\(text)', not a revocation")
            }
            return revocation
        }
        let methods: String = try read("methods")
        self.init(
            id: try read("id"),
            userID: try read("user_id"),
            authTime: try read("auth_time"),
            methods: methods.split(separator: " ").map(String.init),
            assurance: try read("assurance"),
            createdAt: try read("created_at"),
            expiresAt: try read("expires_at"),
            revokedAt: try read("revoked_at"),
            revocation: revocation
        )
    }
}
