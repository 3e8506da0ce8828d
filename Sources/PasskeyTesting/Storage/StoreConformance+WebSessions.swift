import Foundation
import PasskeyStorage

// Times: sessions here are created at or before `Fixture.now` and expire at least an hour after it, except those
// of the check of bounded deletion, which live between `now + 100` and `now + 200` and are deleted by sessions
// created at `now + 300`. So no other check's creation deletes that check's sessions, and it deletes no other
// check's: the checks may share a store.
extension StoreConformance {
    static let webSessions: [StoreConformanceCheck] = [
        StoreConformanceCheck("a web session is found by its secret's hash until it expires") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let session = Fixture.webSession(
                userID: user.id,
                credentialID: Fixture.bytes(),
                expiresAt: Fixture.now + 86_400
            )
            try await store.createWebSession(session)
            for time in [Fixture.now - 10, Fixture.now, Fixture.now + 86_399] {
                let found = try await store.webSession(secretHash: session.secretHash, at: time)
                try require(
                    found == session,
                    "the session must be found until it expires: \(String(describing: found))"
                )
            }
            for time in [Fixture.now + 86_400, Fixture.now + 90_000] {
                let found = try await store.webSession(secretHash: session.secretHash, at: time)
                try require(found == nil, "an expired session must not be found")
            }
            try require(
                try await store.webSession(secretHash: Fixture.bytes(), at: Fixture.now) == nil,
                "an unknown secret must find nothing"
            )
            let console = WebSessionRecord(
                id: Fixture.id("ws"),
                secretHash: Fixture.bytes(),
                kind: .console,
                userID: nil,
                operatorName: "ops key",
                credentialID: nil,
                clientIP: nil,
                createdAt: Fixture.now,
                expiresAt: Fixture.now + 3600
            )
            try await store.createWebSession(console)
            let found = try await store.webSession(secretHash: console.secretHash, at: Fixture.now)
            try require(found == console, "a session without user, passkey or address must round-trip")
        },
        StoreConformanceCheck("web session ids and secrets are unique; a session needs a known user") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let first = Fixture.webSession(userID: user.id)
            try await store.createWebSession(first)
            var sameID = Fixture.webSession(userID: user.id)
            sameID.id = first.id
            try await requireStoreError(.duplicate) { try await store.createWebSession(sameID) }
            var sameSecret = Fixture.webSession(userID: user.id)
            sameSecret.secretHash = first.secretHash
            try await requireStoreError(.duplicate) { try await store.createWebSession(sameSecret) }
            let stranger = Fixture.webSession(userID: Fixture.id("missing"))
            try await requireStoreError(.notFound) { try await store.createWebSession(stranger) }
            try require(
                try await store.webSession(secretHash: first.secretHash, at: Fixture.now) == first,
                "the first session must be unchanged"
            )
            try require(
                try await store.webSessions(userID: user.id, at: Fixture.now) == [first],
                "refused sessions must not be stored"
            )
            try require(
                try await store.webSession(secretHash: stranger.secretHash, at: Fixture.now) == nil,
                "a session for an unknown user must not be stored"
            )
        },
        StoreConformanceCheck("a user's web sessions: both kinds, not expired, newest first") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let other = try await store.createUserIfAbsent(Fixture.user())
            let prefix = Fixture.id("ws")
            let end = Fixture.now + 7200
            var oldest = Fixture.webSession(userID: user.id, createdAt: Fixture.now - 30, expiresAt: end)
            oldest.id = prefix + "-c"
            var tiedLow = Fixture.webSession(
                userID: user.id,
                kind: .console,
                createdAt: Fixture.now - 20,
                expiresAt: end
            )
            tiedLow.id = prefix + "-a"
            var tiedHigh = Fixture.webSession(userID: user.id, createdAt: Fixture.now - 20, expiresAt: end)
            tiedHigh.id = prefix + "-b"
            let newest = Fixture.webSession(
                userID: user.id,
                kind: .console,
                createdAt: Fixture.now - 10,
                expiresAt: end
            )
            let expiring = Fixture.webSession(
                userID: user.id,
                createdAt: Fixture.now - 5,
                expiresAt: Fixture.now + 3600
            )
            let others = Fixture.webSession(userID: other.id)
            for session in [tiedLow, newest, oldest, others, expiring, tiedHigh] {
                try await store.createWebSession(session)
            }
            let listed = try await store.webSessions(userID: user.id, at: Fixture.now)
            try require(
                listed.map(\.id) == [expiring, newest, tiedHigh, tiedLow, oldest].map(\.id),
                "sessions must be listed newest first, ties by id descending: \(listed.map(\.id))"
            )
            let later = try await store.webSessions(userID: user.id, at: Fixture.now + 3600)
            try require(
                later.map(\.id) == [newest, tiedHigh, tiedLow, oldest].map(\.id),
                "an expired session must not be listed: \(later.map(\.id))"
            )
            try require(
                try await store.webSessions(userID: Fixture.id("nobody"), at: Fixture.now).isEmpty,
                "an unknown user has no sessions"
            )
        },
        StoreConformanceCheck("ending one web session by its id") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let ended = Fixture.webSession(userID: user.id)
            let kept = Fixture.webSession(userID: user.id)
            try await store.createWebSession(ended)
            try await store.createWebSession(kept)
            try require(try await store.deleteWebSession(id: ended.id), "ending a session must report it existed")
            try require(try await store.deleteWebSession(id: ended.id) == false, "ending it again must report false")
            try require(
                try await store.deleteWebSession(id: Fixture.id("ws")) == false,
                "ending an unknown session must report false"
            )
            try require(
                try await store.webSession(secretHash: ended.secretHash, at: Fixture.now) == nil,
                "an ended session must not be found"
            )
            try require(
                try await store.webSessions(userID: user.id, at: Fixture.now) == [kept],
                "the other session must stay"
            )
        },
        StoreConformanceCheck("ending a user's web sessions: those of one passkey, then all") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let other = try await store.createUserIfAbsent(Fixture.user())
            let passkey = Fixture.bytes()
            let otherPasskey = Fixture.bytes()
            let withPasskey = (0..<2).map { _ in Fixture.webSession(userID: user.id, credentialID: passkey) }
            let withOtherPasskey = Fixture.webSession(userID: user.id, credentialID: otherPasskey)
            let withoutPasskey = Fixture.webSession(userID: user.id, kind: .console)
            let othersSession = Fixture.webSession(userID: other.id, credentialID: passkey)
            for session in withPasskey + [withOtherPasskey, withoutPasskey, othersSession] {
                try await store.createWebSession(session)
            }
            let byPasskey = try await store.deleteWebSessions(userID: user.id, credentialID: passkey)
            try require(byPasskey == 2, "ending the passkey's sessions must end 2, not \(byPasskey)")
            let left = try await store.webSessions(userID: user.id, at: Fixture.now)
            try require(
                Set(left) == [withOtherPasskey, withoutPasskey],
                "the sessions of another passkey or none must stay: \(left.map(\.id))"
            )
            let all = try await store.deleteWebSessions(userID: user.id, credentialID: nil)
            try require(all == 2, "ending all the user's sessions must end the 2 left, not \(all)")
            try require(try await store.webSessions(userID: user.id, at: Fixture.now).isEmpty, "no session may stay")
            try require(
                try await store.deleteWebSessions(userID: user.id, credentialID: nil) == 0,
                "ending them again must end none"
            )
            try require(
                try await store.webSessions(userID: other.id, at: Fixture.now) == [othersSession],
                "another user's session with the same passkey id must stay"
            )
        },
        StoreConformanceCheck("deleting a user deletes their web sessions") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let other = try await store.createUserIfAbsent(Fixture.user())
            let sessions = [Fixture.webSession(userID: user.id), Fixture.webSession(userID: user.id, kind: .console)]
            let kept = Fixture.webSession(userID: other.id)
            for session in sessions + [kept] { try await store.createWebSession(session) }
            try require(try await store.deleteUser(id: user.id), "the user must be deleted")
            for session in sessions {
                try require(
                    try await store.webSession(secretHash: session.secretHash, at: Fixture.now) == nil,
                    "a deleted user's session must be gone"
                )
                try require(
                    try await store.deleteWebSession(id: session.id) == false,
                    "a deleted user's session must not be stored"
                )
            }
            try require(try await store.webSessions(userID: user.id, at: Fixture.now).isEmpty, "no session may stay")
            try require(
                try await store.webSession(secretHash: kept.secretHash, at: Fixture.now) == kept,
                "another user's session must stay"
            )
        },
        StoreConformanceCheck("creating a web session deletes at most WebSessionRecord.removedPerCall expired ones") {
            store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let removed = WebSessionRecord.removedPerCall
            let expiring = (0..<(removed * 2 + 5)).map { _ in
                Fixture.webSession(userID: user.id, createdAt: Fixture.now + 100, expiresAt: Fixture.now + 200)
            }
            for session in expiring { try await store.createWebSession(session) }
            let beforeAny = try await store.webSessions(userID: user.id, at: Fixture.now + 150).count
            try require(beforeAny == expiring.count, "creating unexpired sessions must delete none of them")
            let later = { Fixture.webSession(userID: nil, createdAt: Fixture.now + 300, expiresAt: Fixture.now + 400) }
            try await store.createWebSession(later())
            let afterOne = try await store.webSessions(userID: user.id, at: Fixture.now + 150).count
            try require(
                afterOne == expiring.count - removed,
                "one creation must delete \(removed) expired sessions; \(expiring.count - afterOne) were deleted"
            )
            try await store.createWebSession(later())
            try await store.createWebSession(later())
            let afterThree = try await store.webSessions(userID: user.id, at: Fixture.now + 150).count
            try require(afterThree == 0, "three creations must have deleted all \(expiring.count), not \(afterThree)")
        },
    ]
}

extension Fixture {
    /// A demo session (unless `kind` says otherwise) signed in with a passkey from one address, live for an hour
    /// unless `expiresAt` says otherwise.
    static func webSession(
        userID: String?,
        kind: WebSessionRecord.Kind = .demo,
        credentialID: [UInt8]? = nil,
        createdAt: Date = now,
        expiresAt: Date? = nil
    ) -> WebSessionRecord {
        WebSessionRecord(
            id: id("ws"),
            secretHash: bytes(),
            kind: kind,
            userID: userID,
            operatorName: kind == .console ? "user:\(userID ?? "none")" : nil,
            credentialID: credentialID ?? bytes(16),
            clientIP: "203.0.113.7",
            createdAt: createdAt,
            expiresAt: expiresAt ?? createdAt + 3600
        )
    }
}
