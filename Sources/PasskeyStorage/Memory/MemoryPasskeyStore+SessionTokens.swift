public import Foundation

extension MemoryPasskeyStore: SessionTokenStore {
    public func currentSigningKey(creatingIfNone candidate: SessionSigningKey) -> SessionSigningKey {
        if let current = sessionSigningKeys.last(where: \.isCurrent) { return current }
        var key = candidate
        key.retiredAt = nil
        key.publishedUntil = nil
        sessionSigningKeys.append(key)
        return key
    }

    public func rotateSigningKey(
        to key: SessionSigningKey,
        retiredKeyPublishedUntil: Date
    ) throws(StoreError) -> SessionSigningKey? {
        guard !sessionSigningKeys.contains(where: { $0.id == key.id }) else {
            throw StoreError(.duplicate, "A signing key with id \(key.id) exists.")
        }
        var retired: SessionSigningKey?
        if let index = sessionSigningKeys.lastIndex(where: \.isCurrent) {
            sessionSigningKeys[index].retiredAt = key.createdAt
            sessionSigningKeys[index].publishedUntil = retiredKeyPublishedUntil
            retired = sessionSigningKeys[index]
        }
        var current = key
        current.retiredAt = nil
        current.publishedUntil = nil
        sessionSigningKeys.append(current)
        return retired
    }

    public func publishedSigningKeys(at time: Date) -> [SessionSigningKey] {
        let published = sessionSigningKeys.filter { $0.isPublished(at: time) }.sorted { first, second in
            if first.createdAt != second.createdAt { return first.createdAt > second.createdAt }
            return second.id.utf8.lexicographicallyPrecedes(first.id.utf8)
        }
        return published.filter(\.isCurrent) + published.filter { !$0.isCurrent }
    }

    public func createRefreshTokenFamily(
        _ family: RefreshTokenFamily,
        firstToken: RefreshToken
    ) throws(StoreError) {
        guard users[family.userID] != nil else {
            throw StoreError(.notFound, "No user \(family.userID) for the token session.")
        }
        guard refreshTokenFamiliesByID[family.id] == nil, refreshTokensByHash[firstToken.tokenHash] == nil else {
            throw StoreError(.duplicate, "A token session with this id or refresh token exists.")
        }
        refreshTokenFamiliesByID[family.id] = family
        var token = firstToken
        token.familyID = family.id
        refreshTokensByHash[token.tokenHash] = token
    }

    public func rotateRefreshToken(
        hash: [UInt8],
        nextHash: [UInt8],
        nextExpiresAt: Date,
        at time: Date
    ) throws(StoreError) -> RefreshTokenRotation {
        guard let token = refreshTokensByHash[hash], var family = refreshTokenFamiliesByID[token.familyID] else {
            return .unknown
        }
        if family.revokedAt != nil { return .revoked(family) }
        if token.usedAt != nil {
            family.revokedAt = time
            family.revocation = .reuse
            refreshTokenFamiliesByID[family.id] = family
            return .reused(family)
        }
        guard token.expiresAt > time, family.expiresAt > time else { return .expired(family) }
        guard refreshTokensByHash[nextHash] == nil else {
            throw StoreError(.duplicate, "A refresh token with this hash exists.")
        }
        refreshTokensByHash[hash]?.usedAt = time
        let expiry = min(nextExpiresAt, family.expiresAt)
        refreshTokensByHash[nextHash] = RefreshToken(
            tokenHash: nextHash,
            familyID: family.id,
            createdAt: time,
            expiresAt: expiry
        )
        return .rotated(family, nextExpiresAt: expiry)
    }

    public func revokeRefreshTokenFamily(
        tokenHash hash: [UInt8],
        at time: Date
    ) -> (family: RefreshTokenFamily, revokedNow: Bool)? {
        guard let token = refreshTokensByHash[hash], var family = refreshTokenFamiliesByID[token.familyID] else {
            return nil
        }
        guard family.revokedAt == nil else { return (family, false) }
        family.revokedAt = time
        family.revocation = .revoked
        refreshTokenFamiliesByID[family.id] = family
        return (family, true)
    }

    public func refreshTokenFamilies(userID: String) -> [RefreshTokenFamily] {
        refreshTokenFamiliesByID.values.filter { $0.userID == userID }.sorted { first, second in
            if first.createdAt != second.createdAt { return first.createdAt > second.createdAt }
            return second.id.utf8.lexicographicallyPrecedes(first.id.utf8)
        }
    }
}
