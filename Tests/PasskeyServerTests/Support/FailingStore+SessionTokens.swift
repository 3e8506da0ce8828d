import Foundation
import PasskeyStorage

extension FailingStore {
    func currentSigningKey(creatingIfNone candidate: SessionSigningKey) async throws(StoreError) -> SessionSigningKey {
        try check()
        return await base.currentSigningKey(creatingIfNone: candidate)
    }

    func rotateSigningKey(
        to key: SessionSigningKey,
        retiredKeyPublishedUntil: Date
    ) async throws(StoreError) -> SessionSigningKey? {
        try check()
        return try await base.rotateSigningKey(to: key, retiredKeyPublishedUntil: retiredKeyPublishedUntil)
    }

    func publishedSigningKeys(at time: Date) async throws(StoreError) -> [SessionSigningKey] {
        try check()
        return await base.publishedSigningKeys(at: time)
    }

    func createRefreshTokenFamily(_ family: RefreshTokenFamily, firstToken: RefreshToken) async throws(StoreError) {
        try check()
        try await base.createRefreshTokenFamily(family, firstToken: firstToken)
    }

    func rotateRefreshToken(
        hash: [UInt8],
        nextHash: [UInt8],
        nextExpiresAt: Date,
        at time: Date
    ) async throws(StoreError) -> RefreshTokenRotation {
        try check()
        return try await base.rotateRefreshToken(hash: hash, nextHash: nextHash, nextExpiresAt: nextExpiresAt, at: time)
    }

    func revokeRefreshTokenFamily(
        tokenHash hash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> (family: RefreshTokenFamily, revokedNow: Bool)? {
        try check()
        return await base.revokeRefreshTokenFamily(tokenHash: hash, at: time)
    }

    func refreshTokenFamilies(userID: String) async throws(StoreError) -> [RefreshTokenFamily] {
        try check()
        return await base.refreshTokenFamilies(userID: userID)
    }
}
