import Foundation
import PasskeyStorage

/// ``SessionTokenStore``: refresh-token families rotate as a compare-and-set, a reused token revokes its family, and
/// the signing keys rotate with the old key published until its tokens have expired.
extension StoreConformance {
    static let sessionTokens: [StoreConformanceCheck] = [
        StoreConformanceCheck("a refresh token rotates once; its successor is live, the family unchanged") { store in
            let session = try await TokenSessionFixture.make(in: store)
            let next = Fixture.bytes()
            let rotation = try await store.rotateRefreshToken(
                hash: session.tokenHash,
                nextHash: next,
                nextExpiresAt: Fixture.now + 600,
                at: Fixture.now + 10
            )
            try require(
                rotation == .rotated(session.family, nextExpiresAt: Fixture.now + 600),
                "a live token must rotate: \(rotation)"
            )
            let again = try await store.rotateRefreshToken(
                hash: next,
                nextHash: Fixture.bytes(),
                nextExpiresAt: Fixture.now + 100_000,
                at: Fixture.now + 20
            )
            try require(
                again == .rotated(session.family, nextExpiresAt: session.family.expiresAt),
                "the successor must rotate, expiring with its family at the latest: \(again)"
            )
        },
        StoreConformanceCheck("a used refresh token presented again revokes its family") { store in
            let session = try await TokenSessionFixture.make(in: store)
            let next = Fixture.bytes()
            _ = try await store.rotateRefreshToken(
                hash: session.tokenHash,
                nextHash: next,
                nextExpiresAt: Fixture.now + 600,
                at: Fixture.now + 10
            )
            let reuse = try await store.rotateRefreshToken(
                hash: session.tokenHash,
                nextHash: Fixture.bytes(),
                nextExpiresAt: Fixture.now + 600,
                at: Fixture.now + 20
            )
            guard case .reused(let family) = reuse, family.revocation == .reuse, family.revokedAt == Fixture.now + 20
            else { throw StoreConformanceFailure(description: "the reuse must revoke the family: \(reuse)") }
            let newest = try await store.rotateRefreshToken(
                hash: next,
                nextHash: Fixture.bytes(),
                nextExpiresAt: Fixture.now + 600,
                at: Fixture.now + 30
            )
            guard case .revoked = newest else {
                throw StoreConformanceFailure(description: "the newest token of a revoked family must fail: \(newest)")
            }
        },
        StoreConformanceCheck("of two racing rotations of one token, one wins and the family ends revoked") { store in
            let session = try await TokenSessionFixture.make(in: store)
            let outcomes = try await withThrowingTaskGroup(of: RefreshTokenRotation.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await store.rotateRefreshToken(
                            hash: session.tokenHash,
                            nextHash: Fixture.bytes(),
                            nextExpiresAt: Fixture.now + 600,
                            at: Fixture.now + 10
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let won = outcomes.filter { if case .rotated = $0 { true } else { false } }
            let reused = outcomes.filter { if case .reused = $0 { true } else { false } }
            try require(won.count == 1 && reused.count == 1, "one rotation must win, one be a reuse: \(outcomes)")
            let families = try await store.refreshTokenFamilies(userID: session.family.userID)
            try require(families.first?.revocation == .reuse, "the family must end revoked: \(families)")
        },
        StoreConformanceCheck("expired and unknown refresh tokens change nothing") { store in
            let session = try await TokenSessionFixture.make(in: store, tokenLifetime: 60)
            let late = try await store.rotateRefreshToken(
                hash: session.tokenHash,
                nextHash: Fixture.bytes(),
                nextExpiresAt: Fixture.now + 600,
                at: Fixture.now + 61
            )
            try require(late == .expired(session.family), "an expired token must not rotate: \(late)")
            let unknown = try await store.rotateRefreshToken(
                hash: Fixture.bytes(),
                nextHash: Fixture.bytes(),
                nextExpiresAt: Fixture.now + 600,
                at: Fixture.now
            )
            try require(unknown == .unknown, "an unknown token: \(unknown)")
            try require(
                try await store.revokeRefreshTokenFamily(tokenHash: Fixture.bytes(), at: Fixture.now) == nil,
                "revoking an unknown token finds no family"
            )
        },
        StoreConformanceCheck("revoking a family is idempotent and ends all its tokens") { store in
            let session = try await TokenSessionFixture.make(in: store)
            let first = try await store.revokeRefreshTokenFamily(tokenHash: session.tokenHash, at: Fixture.now + 5)
            let second = try await store.revokeRefreshTokenFamily(tokenHash: session.tokenHash, at: Fixture.now + 9)
            try require(
                first?.family.revocation == .revoked && first?.family.revokedAt == Fixture.now + 5
                    && first?.revokedNow == true && second?.revokedNow == false && second?.family == first?.family,
                "the first revocation must stay: \(String(describing: first)), \(String(describing: second))"
            )
            let after = try await store.rotateRefreshToken(
                hash: session.tokenHash,
                nextHash: Fixture.bytes(),
                nextExpiresAt: Fixture.now + 600,
                at: Fixture.now + 10
            )
            guard case .revoked = after else {
                throw StoreConformanceFailure(description: "a revoked family's token must not rotate: \(after)")
            }
        },
        StoreConformanceCheck("a token session needs its user and a fresh token") { store in
            try await requireStoreError(.notFound) {
                _ = try await TokenSessionFixture.make(in: store, user: Fixture.user())
            }
            let session = try await TokenSessionFixture.make(in: store)
            try await requireStoreError(.duplicate) {
                var family = session.family
                family.id = Fixture.id("sf")
                try await store.createRefreshTokenFamily(
                    family,
                    firstToken: RefreshToken(
                        tokenHash: session.tokenHash,
                        familyID: family.id,
                        createdAt: Fixture.now,
                        expiresAt: Fixture.now + 60
                    )
                )
            }
        },
        StoreConformanceCheck("deleting a user deletes their token sessions") { store in
            let session = try await TokenSessionFixture.make(in: store)
            _ = try await store.deleteUser(id: session.family.userID)
            let rotation = try await store.rotateRefreshToken(
                hash: session.tokenHash,
                nextHash: Fixture.bytes(),
                nextExpiresAt: Fixture.now + 600,
                at: Fixture.now + 1
            )
            try require(rotation == .unknown, "a deleted user's token must be unknown: \(rotation)")
        },
    ]

    /// The signing keys are one set per store, and purging counts across the store: these checks need a store of
    /// their own.
    static let sessionTokensAlone: [StoreConformanceCheck] = [
        StoreConformanceCheck("the first key is made once, however many ask at once") { store in
            let keys = try await withThrowingTaskGroup(of: SessionSigningKey.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await store.currentSigningKey(creatingIfNone: Fixture.signingKey(at: Fixture.now))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            try require(Set(keys.map(\.id)).count == 1, "every caller must get the one key: \(keys.map(\.id))")
            let published = try await store.publishedSigningKeys(at: Fixture.now)
            try require(published.map(\.id) == [keys[0].id], "one key is published: \(published.map(\.id))")
        },
        StoreConformanceCheck("a rotated key stays published until its tokens expire, then is purged") { store in
            let first = try await store.currentSigningKey(creatingIfNone: Fixture.signingKey(at: Fixture.now))
            let second = Fixture.signingKey(at: Fixture.now + 100)
            let retired = try await store.rotateSigningKey(to: second, retiredKeyPublishedUntil: Fixture.now + 1000)
            try require(
                retired?.id == first.id && retired?.retiredAt == Fixture.now + 100
                    && retired?.publishedUntil == Fixture.now + 1000,
                "the old key must be retired: \(String(describing: retired))"
            )
            let current = try await store.currentSigningKey(creatingIfNone: Fixture.signingKey(at: Fixture.now + 101))
            try require(current == second, "the new key must be current: \(current.id)")
            // A key made at the same time as the current one is listed after it: the current key comes first.
            let third = Fixture.signingKey(at: Fixture.now + 100)
            _ = try await store.rotateSigningKey(to: third, retiredKeyPublishedUntil: Fixture.now + 500)
            let ordered = try await store.publishedSigningKeys(at: Fixture.now + 101)
            try require(
                ordered.map(\.id) == [third.id, second.id, first.id],
                "the current key first, then the newest: \(ordered.map(\.id))"
            )
            let both = try await store.publishedSigningKeys(at: Fixture.now + 999)
            try require(both.map(\.id) == [third.id, first.id], "two keys are published: \(both.map(\.id))")
            let one = try await store.publishedSigningKeys(at: Fixture.now + 1000)
            try require(one.map(\.id) == [third.id], "the old keys' tokens have expired: \(one.map(\.id))")
            let report = try await store.purge(before: Fixture.now + 1001, auditBefore: nil, limit: 10)
            try require(report == PurgeReport(signingKeys: 2), "the retired keys are purged: \(report)")
            try await requireStoreError(.duplicate) {
                _ = try await store.rotateSigningKey(to: third, retiredKeyPublishedUntil: Fixture.now + 2000)
            }
            let kept = try await store.publishedSigningKeys(at: Fixture.now + 1001)
            try require(kept.map(\.id) == [third.id], "a refused rotation changes nothing: \(kept.map(\.id))")
        },
        StoreConformanceCheck("families past their absolute lifetime are purged with their tokens") { store in
            let old = try await TokenSessionFixture.make(in: store, familyLifetime: 100)
            let live = try await TokenSessionFixture.make(in: store, familyLifetime: 10_000)
            let report = try await store.purge(before: Fixture.now + 200, auditBefore: nil, limit: 10)
            try require(report == PurgeReport(refreshTokenFamilies: 1), "one family is over: \(report)")
            let gone = try await store.revokeRefreshTokenFamily(tokenHash: old.tokenHash, at: Fixture.now + 201)
            try require(gone == nil, "the purged family's token must be unknown")
            let kept = try await store.revokeRefreshTokenFamily(tokenHash: live.tokenHash, at: Fixture.now + 201)
            try require(kept?.family.id == live.family.id, "the live family must stay")
        },
    ]
}

/// A user with one token session: its family and the SHA-256 of its first refresh token.
struct TokenSessionFixture {
    let family: RefreshTokenFamily
    let tokenHash: [UInt8]

    static func make(
        in store: any PasskeyStore,
        user existing: UserRecord? = nil,
        tokenLifetime: TimeInterval = 3600,
        familyLifetime: TimeInterval = 86_400
    ) async throws -> Self {
        let user: UserRecord
        if let existing { user = existing } else { user = try await store.createUserIfAbsent(Fixture.user()) }
        let family = RefreshTokenFamily(
            id: Fixture.id("sf"),
            userID: user.id,
            authTime: Fixture.now,
            methods: ["hwk", "user", "mfa"],
            assurance: "passkey+uv",
            createdAt: Fixture.now,
            expiresAt: Fixture.now + familyLifetime
        )
        let hash = Fixture.bytes()
        try await store.createRefreshTokenFamily(
            family,
            firstToken: RefreshToken(
                tokenHash: hash,
                familyID: family.id,
                createdAt: Fixture.now,
                expiresAt: Fixture.now + min(tokenLifetime, familyLifetime)
            )
        )
        return Self(family: family, tokenHash: hash)
    }
}

extension Fixture {
    /// A signing key with random bytes: the store keeps keys, it does not use them.
    static func signingKey(at time: Date) -> SessionSigningKey {
        SessionSigningKey(id: id("kid"), privateKey: bytes(32), publicKey: [4] + bytes(64), createdAt: time)
    }
}
