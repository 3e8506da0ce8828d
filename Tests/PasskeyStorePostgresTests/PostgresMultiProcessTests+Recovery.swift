import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyTesting
import Testing

/// A recovery token is exchanged once and a recovery settles once, whichever process asks; finalizing revokes the old
/// credentials in one transaction that a sign-in through the other process cannot slip past.
extension PostgresMultiProcessTests {
    @Test("20 exchanges of one recovery token at once through both stores: exactly one wins")
    func recoveryTokenExchangeRace() async throws {
        try await withTwoStores("recovery_exchange") { stores in
            let user = try await stores[0].createUserIfAbsent(
                UserRecord(
                    id: "user-\(UUID())",
                    handle: Self.bytes(),
                    name: "ada",
                    displayName: "Ada",
                    createdAt: Self.now
                )
            )
            let attempt = RecoveryAttemptRecord(
                id: "rec_\(UUID())",
                userID: user.id,
                tokenHash: Self.bytes(),
                status: .pending,
                createdAt: Self.now,
                updatedAt: Self.now,
                expiresAt: Self.now + 900
            )
            try await stores[1].createRecoveryAttempt(attempt)
            let winners = try await withThrowingTaskGroup(of: RecoveryAttemptRecord?.self) { group in
                for index in 0..<20 {
                    let store = stores[index % stores.count]
                    group.addTask {
                        try await store.exchangeRecoveryToken(
                            attemptID: attempt.id,
                            tokenHash: attempt.tokenHash,
                            registrationFlow: FlowRecord.fixture(kind: .recoveryRegistration, userID: user.id),
                            at: Self.now
                        )
                    }
                }
                return try await group.compactMap { $0 }.reduce(into: [RecoveryAttemptRecord]()) { $0.append($1) }
            }
            #expect(winners.count == 1)
            for store in stores {
                #expect(try await store.recoveryAttempt(id: attempt.id) == winners.first)
            }
        }
    }

    @Test("10 recoveries, each finalized through one store while cancelled through the other: one wins each")
    func recoveryFinalizeCancelRace() async throws {
        try await withTwoStores("recovery_settle") { stores in
            for round in 0..<10 {
                let fixture = try await RecoveryFixture.exchanged(in: stores[0])
                let id = fixture.attempt.id
                let (finalizer, canceller) = round.isMultiple(of: 2) ? (stores[0], stores[1]) : (stores[1], stores[0])
                async let finalized = finalizer.finalizeRecovery(attemptID: id, revoking: .all, at: Self.now)
                async let cancelled = canceller.cancelRecoveryAttempt(id: id, at: Self.now)
                let (finalize, cancel) = try await (finalized, cancelled)
                #expect((finalize == nil) != (cancel == nil))
                let left = Set(try await stores[1].credentials(userID: fixture.user.id).map(\.id))
                #expect(left == Set(finalize != nil ? [fixture.replacement.id] : fixture.old.map(\.id)))
            }
        }
    }

    @Test(
        "a sign-in with an old credential racing the finalize in the other store happens before the revocation, or not at all"
    )
    func recoveryFinalizeRacesSignIn() async throws {
        try await withTwoStores("recovery_sign_in") { stores in
            for round in 0..<10 {
                let fixture = try await RecoveryFixture.exchanged(in: stores[0])
                let old = fixture.old[0]
                let (finalizer, signer) = round.isMultiple(of: 2) ? (stores[0], stores[1]) : (stores[1], stores[0])
                async let finalized = finalizer.finalizeRecovery(
                    attemptID: fixture.attempt.id,
                    revoking: .all,
                    at: Self.now + 1
                )
                async let used = signer.recordSignIn(
                    id: old.id,
                    expectedSignCount: old.signCount,
                    signCount: old.signCount + 1,
                    backupState: old.backupState,
                    at: Self.now + 1
                )
                let (finalize, use) = try await (finalized, used)
                let revoked = try #require(finalize?.revoked.first { $0.id == old.id })
                // A use that succeeded came first: the revocation saw its counter.
                #expect(revoked.signCount == (use == nil ? old.signCount : old.signCount + 1))
                #expect(try await signer.credential(id: old.id)?.status == .revoked)
            }
        }
    }
}
