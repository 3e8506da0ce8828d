import Foundation
import PasskeyStorage

extension StoreConformance {
    /// A credential's use, recorded as a sign-in records it (`recordSignIn`): a compare-and-set on its status and
    /// counter (``CeremonyStore``).
    static let credentialUse: [StoreConformanceCheck] = [
        StoreConformanceCheck("a use after revocation returns nil and changes nothing") { store in
            let credential = try await Fixture.activeCredential(in: store, signCount: 5)
            let revoked = try await store.revokeCredential(id: credential.id, at: Fixture.now + 1)
            let used = try await store.recordSignIn(
                id: credential.id,
                expectedSignCount: 5,
                signCount: 6,
                backupState: false,
                at: Fixture.now + 2
            )
            try require(used == nil, "a revoked credential must not record a use: \(String(describing: used))")
            let stored = try await store.credential(id: credential.id)
            try require(stored != nil && stored == revoked, "the revoked record must be unchanged")
        },
        StoreConformanceCheck("a use of an unknown or reserved credential returns nil") { store in
            let unknown = try await store.recordSignIn(
                id: Fixture.bytes(),
                expectedSignCount: 0,
                signCount: 1,
                backupState: false,
                at: Fixture.now
            )
            try require(unknown == nil, "an unknown credential must not record a use")
            let user = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id)
            try await store.createFlow(flow)
            let reserved = Fixture.credential(
                userID: user.id,
                status: .reserved,
                reservedUntil: Fixture.now + 60,
                flowID: flow.id
            )
            try await store.insertCredential(
                reserved,
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(),
                at: Fixture.now
            )
            let used = try await store.recordSignIn(
                id: reserved.id,
                expectedSignCount: 0,
                signCount: 1,
                backupState: false,
                at: Fixture.now
            )
            try require(used == nil, "a reserved credential must not record a use")
            try require(try await store.credential(id: reserved.id) == reserved, "the reservation must be unchanged")
        },
        StoreConformanceCheck("a use with a stale expected counter returns nil and changes nothing") { store in
            let credential = try await Fixture.activeCredential(in: store, signCount: 5)
            let first = try await store.recordSignIn(
                id: credential.id,
                expectedSignCount: 5,
                signCount: 8,
                backupState: true,
                at: Fixture.now + 1
            )
            try require(first?.signCount == 8 && first?.lastUsedAt == Fixture.now + 1, "the first use must be recorded")
            for expected: UInt32 in [5, 7, 9] {
                let stale = try await store.recordSignIn(
                    id: credential.id,
                    expectedSignCount: expected,
                    signCount: 10,
                    backupState: false,
                    at: Fixture.now + 2
                )
                try require(stale == nil, "a use expecting the counter \(expected) when it is 8 must return nil")
            }
            try require(try await store.credential(id: credential.id) == first, "the stale uses must change nothing")
        },
        StoreConformanceCheck("an authenticator without a counter (0 → 0) records every use") { store in
            let credential = try await Fixture.activeCredential(in: store, signCount: 0)
            for second in 1...3 {
                let used = try await store.recordSignIn(
                    id: credential.id,
                    expectedSignCount: 0,
                    signCount: 0,
                    backupState: second.isMultiple(of: 2),
                    at: Fixture.now + TimeInterval(second)
                )
                try require(
                    used?.signCount == 0 && used?.lastUsedAt == Fixture.now + TimeInterval(second)
                        && used?.backupState == second.isMultiple(of: 2),
                    "use \(second) with a counter of 0 must be recorded: \(String(describing: used))"
                )
            }
        },
        StoreConformanceCheck("20 pairs of concurrent uses from one counter: one of each pair wins, its counter stays")
        {
            store in
            for _ in 0..<20 {
                let credential = try await Fixture.activeCredential(in: store, signCount: 5)
                let id = credential.id
                let winners = try await withThrowingTaskGroup(of: UInt32?.self) { group in
                    for next: UInt32 in [6, 7] {
                        group.addTask {
                            try await store.recordSignIn(
                                id: id,
                                expectedSignCount: 5,
                                signCount: next,
                                backupState: false,
                                at: Fixture.now + TimeInterval(next)
                            )?.signCount
                        }
                    }
                    return try await group.compactMap { $0 }.reduce(into: [UInt32]()) { $0.append($1) }
                }
                try require(winners.count == 1, "\(winners.count) of two racing uses succeeded; exactly one may")
                let stored = try await store.credential(id: id)
                try require(
                    stored?.signCount == winners.first
                        && stored?.lastUsedAt == Fixture.now + TimeInterval(winners.first ?? 0),
                    "the stored counter must be the winner's \(winners): \(String(describing: stored?.signCount))"
                )
            }
        },
        StoreConformanceCheck(
            "a use racing a revocation: the credential ends revoked, and the use returns nil or came first"
        ) { store in
            for _ in 0..<10 {
                let credential = try await Fixture.activeCredential(in: store, signCount: 1)
                let id = credential.id
                async let revoked = store.revokeCredential(id: id, at: Fixture.now + 5)
                async let used = store.recordSignIn(
                    id: id,
                    expectedSignCount: 1,
                    signCount: 2,
                    backupState: false,
                    at: Fixture.now + 1
                )
                let (revocation, use) = try await (revoked, used)
                try require(revocation != nil, "the revocation must succeed")
                let stored = try await store.credential(id: id)
                try require(stored?.status == .revoked, "the credential must end revoked")
                // The use either committed before the revocation (which then returned the used record) or failed.
                if let use {
                    try require(
                        revocation?.signCount == use.signCount && stored?.signCount == 2,
                        "a use that won must come before the revocation"
                    )
                } else {
                    try require(stored?.signCount == 1 && stored?.lastUsedAt == nil, "a failed use must change nothing")
                }
            }
        },
    ]
}

extension Fixture {
    /// An active credential of a new user, with the given counter, inserted through a flow of its own.
    static func activeCredential(in store: any PasskeyStore, signCount: UInt32) async throws -> CredentialRecordRow {
        let user = try await store.createUserIfAbsent(user())
        let flow = flow(userID: user.id)
        try await store.createFlow(flow)
        var credential = credential(userID: user.id)
        credential.signCount = signCount
        try await store.insertCredential(
            credential,
            maximumActive: 10,
            flowID: flow.id,
            flowUpdate: FlowUpdate(),
            at: now
        )
        return credential
    }
}
