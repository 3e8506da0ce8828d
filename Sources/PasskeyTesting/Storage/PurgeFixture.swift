import Foundation
import PasskeyStorage

/// The rows the purge check starts from: for each kind, some that are over at ``cut`` and some that are not.
struct PurgeFixture {
    /// Ten years before `Fixture.now`: what the check purges is over before it, everything else after it.
    static let cut = Fixture.now - 315_360_000
    /// Long before the cut: when users were created and ended things began.
    static let long = cut - 10_000

    var deadFlows: [String] = []
    var liveFlows: [String] = []
    var abandonedUsers: [String] = []
    var keptUsers: [String] = []
    var abandonedRun = ""
    var endedReservation: [UInt8] = []
    var liveReservation: [UInt8] = []
    var liveSession: [UInt8] = []
    var endedSession: [UInt8] = []
    var liveWindow: [UInt8] = []
    var endedWindow: [UInt8] = []
    var auditUser = ""
    /// Sequence numbers: three events recorded before the cut, one after.
    var oldEvents: [Int64] = []
    var youngEvent: Int64 = 0
    var oldRun = ""
    var youngRun = ""

    static func make(in store: any PasskeyStore) async throws -> PurgeFixture {
        var fixture = PurgeFixture()
        let cut = Self.cut

        // Users whose sign-up flow is over: kept with an active or a revoked credential, or another flow, or when
        // created after the cut; deleted (with their runs) with no credential, or only a reservation that ended.
        let done = try await fixture.user(store, flowExpiresAt: cut - 500)
        try await store.insertCredential(
            Fixture.credential(userID: done.user),
            maximumActive: 10,
            flowID: done.flow,
            flowUpdate: FlowUpdate(),
            at: long
        )
        let revoked = try await fixture.user(store, flowExpiresAt: cut - 500)
        let revokedCredential = Fixture.credential(userID: revoked.user)
        try await store.insertCredential(
            revokedCredential,
            maximumActive: 10,
            flowID: revoked.flow,
            flowUpdate: FlowUpdate(),
            at: long
        )
        _ = try await store.revokeCredential(id: revokedCredential.id, at: long)
        let abandoned = try await fixture.user(store, flowExpiresAt: cut - 500, kept: false)
        var run = Fixture.workflowRun(userID: abandoned.user)
        run.expiresAt = cut + 1000
        try await store.createWorkflowRun(run)
        fixture.abandonedRun = run.id
        let busy = try await fixture.user(store, flowExpiresAt: cut - 500)
        let busyFlow = Fixture.flow(userID: busy.user, expiresAt: cut + 500)
        try await store.createFlow(busyFlow)
        fixture.liveFlows.append(busyFlow.id)
        _ = try await fixture.user(store, flowExpiresAt: cut - 500, createdAt: cut + 10)

        // Reservations: one that ended (its flow and user go too), one still live (which keeps its flow).
        let reserved = try await fixture.user(store, flowExpiresAt: cut - 500, kept: false)
        fixture.endedReservation = try await reserve(store, user: reserved.user, flow: reserved.flow, until: cut - 100)
        let holding = try await fixture.user(store, flowExpiresAt: cut - 500, flowIsDead: false)
        fixture.liveReservation = try await reserve(store, user: holding.user, flow: holding.flow, until: cut + 500)

        // Authentication sessions without a user: one whose result is still redeemable, one whose result expired.
        for (resultExpiry, dead) in [(cut + 500, false), (cut - 400, true)] {
            var session = Fixture.flow(userID: nil, kind: .authentication, status: .completed, expiresAt: cut - 500)
            session.resultTokenHash = Fixture.bytes()
            session.resultExpiresAt = resultExpiry
            try await store.createFlow(session)
            if dead { fixture.deadFlows.append(session.id) } else { fixture.liveFlows.append(session.id) }
        }

        let live = Fixture.webSession(userID: done.user, createdAt: long, expiresAt: cut + 10)
        try await store.createWebSession(live)
        fixture.liveSession = live.secretHash
        let ended = Fixture.webSession(userID: done.user, createdAt: long, expiresAt: cut - 10)
        try await store.createWebSession(ended)
        fixture.endedSession = ended.secretHash

        // Ended 100 s before the cut: too recently for the counting at `cut - 30` below to delete it.
        fixture.endedWindow = Fixture.bytes()
        _ = try await store.countLimitEvent(keyHash: fixture.endedWindow, window: 60, at: cut - 160)
        fixture.liveWindow = Fixture.bytes()
        _ = try await store.countLimitEvent(keyHash: fixture.liveWindow, window: 60, at: cut - 30)

        fixture.auditUser = done.user
        for offset in [-300.0, -200, -100, 100] {
            let event = try await store.appendAuditEvent(
                AuditEvent(time: cut + offset, actor: "system", action: "test.purge", userID: done.user)
            )
            if offset < 0 { fixture.oldEvents.append(event.sequence) } else { fixture.youngEvent = event.sequence }
            if offset == -100 {
                // Audit events are purged up to a checkpoint: one of the old events, signed before the cut. Stores
                // keep checkpoints without checking them; a verifier does.
                try await store.appendAuditCheckpoint(
                    AuditCheckpoint(
                        sequence: event.sequence,
                        hash: event.hash ?? [],
                        time: cut - 50,
                        publicKey: [],
                        signature: []
                    )
                )
            }
        }
        for (expiry, old) in [(cut - 100, true), (cut + 100, false)] {
            var run = Fixture.workflowRun(userID: done.user)
            run.expiresAt = expiry
            try await store.createWorkflowRun(run)
            if old { fixture.oldRun = run.id } else { fixture.youngRun = run.id }
        }
        return fixture
    }

    /// A user created long before the cut (unless `createdAt` says otherwise) with a registration flow that expires
    /// at `flowExpiresAt`.
    private mutating func user(
        _ store: any PasskeyStore,
        flowExpiresAt: Date,
        createdAt: Date = long,
        kept: Bool = true,
        flowIsDead: Bool = true
    ) async throws -> (user: String, flow: String) {
        var user = Fixture.user()
        user.createdAt = createdAt
        _ = try await store.createUserIfAbsent(user)
        let flow = Fixture.flow(userID: user.id, expiresAt: flowExpiresAt)
        try await store.createFlow(flow)
        if kept { keptUsers.append(user.id) } else { abandonedUsers.append(user.id) }
        if flowIsDead { deadFlows.append(flow.id) } else { liveFlows.append(flow.id) }
        return (user.id, flow.id)
    }

    private static func reserve(
        _ store: any PasskeyStore,
        user: String,
        flow: String,
        until end: Date
    ) async throws -> [UInt8] {
        let credential = Fixture.credential(userID: user, status: .reserved, reservedUntil: end, flowID: flow)
        try await store.insertCredential(
            credential,
            maximumActive: 10,
            flowID: flow,
            flowUpdate: FlowUpdate(),
            at: long
        )
        return credential.id
    }
}
