import Foundation
import PasskeyStorage

// Sessions here are created before `Fixture.now` and expire an hour or more after it, as those of the other checks
// of web sessions: no check's creation deletes another's.
extension StoreConformance {
    /// A sign-up's first passkey (``CeremonyStore``).
    static let firstCredential: [StoreConformanceCheck] = [
        StoreConformanceCheck("a sign-up's passkey is the user's first ever, and writes the sign-up's display name") {
            store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id, status: .verifying)
            try await store.createFlow(flow)
            var first = Fixture.credential(userID: user.id, flowID: flow.id)
            first.consoleEnrolled = true
            try await store.insertFirstCredential(
                first,
                displayName: "Ada, as she signed up",
                flowID: flow.id,
                flowUpdate: FlowUpdate(status: .completed),
                at: Fixture.now
            )
            try require(
                try await store.user(id: user.id)?.displayName == "Ada, as she signed up",
                "the sign-up's display name must be written with its passkey"
            )
            try require(
                try await store.credential(id: first.id)?.consoleEnrolled == true,
                "a credential's console enrolment must round-trip"
            )
            let again = Fixture.credential(userID: user.id, name: "Laptop", flowID: flow.id)
            try await requireStoreError(.limitReached) {
                try await store.insertFirstCredential(
                    again,
                    displayName: "Squatter",
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(status: .completed),
                    at: Fixture.now
                )
            }
            _ = try await store.revokeCredential(id: first.id, at: Fixture.now)
            try await requireStoreError(.limitReached) {
                try await store.insertFirstCredential(
                    again,
                    displayName: "Squatter",
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(status: .completed),
                    at: Fixture.now
                )
            }
            try require(
                try await store.user(id: user.id)?.displayName == "Ada, as she signed up",
                "a refused sign-up must not write its display name"
            )
            try require(try await store.credential(id: again.id) == nil, "a refused sign-up must insert nothing")
            try require(
                try await store.credential(id: Fixture.bytes())?.consoleEnrolled == nil,
                "an unknown credential is not found"
            )
        },
        StoreConformanceCheck("an expired reservation is no passkey on record: the account is still signed up") {
            store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id, status: .verifying)
            try await store.createFlow(flow)
            try await store.insertCredential(
                Fixture.credential(
                    userID: user.id,
                    status: .reserved,
                    reservedUntil: Fixture.now + 10,
                    flowID: flow.id
                ),
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(status: .completed),
                at: Fixture.now
            )
            let signUp = Fixture.flow(userID: user.id, status: .verifying, expiresAt: Fixture.now + 600)
            try await store.createFlow(signUp)
            try await store.insertFirstCredential(
                Fixture.credential(userID: user.id, name: "Key", flowID: signUp.id),
                displayName: "Ada",
                flowID: signUp.id,
                flowUpdate: FlowUpdate(status: .completed),
                at: Fixture.now + 20
            )
            try require(try await store.user(id: user.id)?.displayName == "Ada", "the sign-up must complete")
        },
    ]

    /// The bounds and listings of web sessions the console relies on (``WebSessionStore``).
    static let consoleWebSessions: [StoreConformanceCheck] = [
        StoreConformanceCheck("a user keeps at most maximumPerUser web sessions: the oldest end first") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let other = try await store.createUserIfAbsent(Fixture.user())
            let others = Fixture.webSession(userID: other.id, createdAt: Fixture.now - 50)
            try await store.createWebSession(others, maximumPerUser: 1)
            var created: [WebSessionRecord] = []
            for index in 0..<5 {
                let session = Fixture.webSession(
                    userID: user.id,
                    kind: index == 2 ? .console : .demo,
                    createdAt: Fixture.now - Double(40 - index)
                )
                try await store.createWebSession(session, maximumPerUser: 3)
                created.append(session)
            }
            let kept = try await store.webSessions(userID: user.id, at: Fixture.now)
            try require(
                kept.map(\.id) == created.suffix(3).reversed().map(\.id),
                "the three newest sessions must be kept, newest first: \(kept.map(\.id))"
            )
            for ended in created.prefix(2) {
                try require(
                    try await store.webSession(secretHash: ended.secretHash, at: Fixture.now) == nil,
                    "an older session beyond the bound must have ended"
                )
            }
            try require(
                try await store.webSessions(userID: other.id, at: Fixture.now).map(\.id) == [others.id],
                "another user's sessions must be left alone"
            )
            let page = try await store.webSessions(userID: user.id, at: Fixture.now, offset: 1, limit: 1)
            try require(page.map(\.id) == [created[3].id], "a page must skip offset and hold limit: \(page)")
            try require(
                try await store.webSessions(userID: user.id, at: Fixture.now, offset: 0, limit: 0).isEmpty,
                "a limit below 1 must list nothing"
            )
        }
    ]

    /// The listing of the sessions without a user spans the whole store, so paging it by offset needs a store that no
    /// other check adds sessions to meanwhile.
    static let consoleWebSessionsAlone: [StoreConformanceCheck] = [
        StoreConformanceCheck("without a user, the listing pages the console's sessions signed in with an API key") {
            store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            try await store.createWebSession(
                Fixture.webSession(userID: user.id, kind: .console, createdAt: Fixture.now - 70)
            )
            var breakGlass: [WebSessionRecord] = []
            for index in 0..<3 {
                var session = Fixture.webSession(
                    userID: nil,
                    kind: .console,
                    createdAt: Fixture.now - Double(90 - index)
                )
                session.operatorName = "key-\(index)"
                session.credentialID = nil
                try await store.createWebSession(session)
                breakGlass.append(session)
            }
            let all = try await store.webSessions(userID: nil, at: Fixture.now, offset: 0, limit: 1000)
            try require(all.allSatisfy { $0.userID == nil && $0.kind == .console }, "only sessions without a user")
            let mine = all.filter { session in breakGlass.contains { $0.id == session.id } }
            try require(
                mine.map(\.id) == breakGlass.reversed().map(\.id),
                "the sessions must be listed newest first: \(mine.map(\.id))"
            )
            let start = try requireIndex(all, breakGlass[2].id)
            let page = try await store.webSessions(userID: nil, at: Fixture.now, offset: start + 1, limit: 2)
            try require(
                page.map(\.id) == [breakGlass[1].id, breakGlass[0].id],
                "a page must skip offset and hold limit: \(page.map(\.id))"
            )
        }
    ]
}

/// The index of the session `id` in `sessions`, or a failure.
private func requireIndex(_ sessions: [WebSessionRecord], _ id: String) throws -> Int {
    guard let index = sessions.firstIndex(where: { $0.id == id }) else {
        throw StoreConformanceFailure(description: "the session \(id) must be listed")
    }
    return index
}
