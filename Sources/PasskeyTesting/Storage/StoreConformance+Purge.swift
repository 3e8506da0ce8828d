import Foundation
import PasskeyStorage

// Purging deletes across the whole store, so the check that purges is one of the isolated checks, run on a store of
// its own. It works about `PurgeFixture.cut`, ten years before `Fixture.now`, so that a store which held the other
// checks' rows would still give the same counts. The check of a limit below 1 deletes nothing, and is shared.
extension StoreConformance {
    static let purge: [StoreConformanceCheck] = [
        StoreConformanceCheck("purging deletes what is over, keeps what is not, and reports the counts") { store in
            let setup = try await PurgeFixture.make(in: store)
            let cut = PurgeFixture.cut

            let first = try await store.purge(before: cut, auditBefore: nil, limit: 1000)
            try require(
                first == PurgeReport(flows: 7, reservations: 1, users: 2, webSessions: 1, limitWindows: 1),
                "the first purge's report is wrong: \(first)"
            )
            for flow in setup.deadFlows {
                try require(try await store.flow(id: flow) == nil, "the flow \(flow) was over but is still there")
            }
            for flow in setup.liveFlows {
                try require(try await store.flow(id: flow) != nil, "the flow \(flow) is not over but was deleted")
            }
            for user in setup.abandonedUsers {
                try require(try await store.user(id: user) == nil, "the abandoned user \(user) is still there")
            }
            for user in setup.keptUsers {
                try require(try await store.user(id: user) != nil, "the user \(user) must be kept but was deleted")
            }
            try require(
                try await store.workflowRun(id: setup.abandonedRun) == nil,
                "the run of an abandoned user must go with the user"
            )
            try require(
                try await store.credential(id: setup.endedReservation) == nil,
                "a reservation that ended must be deleted"
            )
            try require(
                try await store.credential(id: setup.liveReservation) != nil,
                "a live reservation must be kept"
            )
            let sessions = (
                live: try await store.webSession(secretHash: setup.liveSession, at: cut),
                ended: try await store.webSession(secretHash: setup.endedSession, at: cut - 100)
            )
            try require(
                sessions.live != nil && sessions.ended == nil,
                "the live web session must be kept, the ended one deleted"
            )
            let windows = (
                live: try await store.limitWindows(keyHashes: [setup.liveWindow], at: cut),
                ended: try await store.limitWindows(keyHashes: [setup.endedWindow], at: cut - 200)
            )
            try require(
                windows.live.count == 1 && windows.ended.isEmpty,
                "the limit window that has not ended must be kept, the ended one deleted"
            )
            try require(
                try await store.auditEvents(after: setup.oldEvents[0] - 1, limit: 10, userID: setup.auditUser).count
                    == 4,
                "without an audit retention no audit event may be deleted"
            )
            try require(try await store.workflowRun(id: setup.oldRun) != nil, "without a retention runs are kept")

            // The audit retention, two at a time: three old events need two calls.
            let second = try await store.purge(before: cut, auditBefore: cut, limit: 2)
            try require(second == PurgeReport(workflowRuns: 1, auditEvents: 2), "second purge: \(second)")
            let third = try await store.purge(before: cut, auditBefore: cut, limit: 2)
            try require(third == PurgeReport(auditEvents: 1), "third purge: \(third)")
            let fourth = try await store.purge(before: cut, auditBefore: cut, limit: 2)
            try require(fourth == PurgeReport(), "nothing is left to purge, yet: \(fourth)")
            let left = try await store.auditEvents(after: setup.oldEvents[0] - 1, limit: 10, userID: setup.auditUser)
            try require(left.map(\.sequence) == [setup.youngEvent], "the audit events left are wrong: \(left)")
            try require(try await store.workflowRun(id: setup.oldRun) == nil, "an old run must be deleted")
            try require(try await store.workflowRun(id: setup.youngRun) != nil, "a young run must be kept")
            let next = try await store.appendAuditEvent(AuditEvent(time: cut, actor: "system", action: "test.after"))
            try require(next.sequence > setup.youngEvent, "purging must not give sequence numbers back")

            // A limit on flows: three dead flows need two calls of two.
            for _ in 0..<3 {
                try await store.createFlow(Fixture.flow(userID: nil, kind: .authentication, expiresAt: cut - 100))
            }
            let limited = try await store.purge(before: cut, auditBefore: nil, limit: 2)
            try require(limited == PurgeReport(flows: 2), "a purge must delete at most the limit: \(limited)")
            let rest = try await store.purge(before: cut, auditBefore: nil, limit: 2)
            try require(rest == PurgeReport(flows: 1), "the second call must delete the rest: \(rest)")
        }
    ]

    static let purgeLimit: [StoreConformanceCheck] = [
        StoreConformanceCheck("purging with a limit below 1 deletes nothing") { store in
            // Over at `Fixture.now`, but not at the cut, so the other check's purges leave it alone.
            let flow = Fixture.flow(userID: nil, kind: .authentication, expiresAt: PurgeFixture.cut + 1000)
            try await store.createFlow(flow)
            for limit in [0, -1] {
                let report = try await store.purge(before: Fixture.now, auditBefore: Fixture.now, limit: limit)
                try require(report == PurgeReport(), "a limit of \(limit) must delete nothing: \(report)")
            }
            try require(try await store.flow(id: flow.id) != nil, "a limit below 1 must delete nothing")
        }
    ]
}
