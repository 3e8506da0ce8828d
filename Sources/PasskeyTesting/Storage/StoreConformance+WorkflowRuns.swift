import Foundation
import PasskeyStorage

extension StoreConformance {
    static let workflowRuns: [StoreConformanceCheck] = [
        StoreConformanceCheck("an identity-verification run is found by its id and by its flow") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let run = Fixture.workflowRun(userID: user.id)
            try await store.createWorkflowRun(run)
            let byID = try await store.workflowRun(id: run.id)
            try require(byID == run, "the run must round-trip by id: \(String(describing: byID))")
            let byFlow = try await store.workflowRun(flowID: run.flowID)
            try require(byFlow == run, "the run must be found by its flow: \(String(describing: byFlow))")
            var full = Fixture.workflowRun(userID: user.id, purpose: .recovery, status: .review)
            full.faceMatch = .fail
            full.vendorReference = "vendor-ref-42"
            full.updatedAt = Fixture.now + 5
            try await store.createWorkflowRun(full)
            for purpose in WorkflowRunRecord.Purpose.allCases {
                let run = Fixture.workflowRun(userID: user.id, purpose: purpose)
                try await store.createWorkflowRun(run)
                try require(try await store.workflowRun(id: run.id) == run, "a \(purpose) run must round-trip")
            }
            try require(
                try await store.workflowRun(id: full.id) == full,
                "a run with a face match and a vendor reference must round-trip"
            )
            try require(try await store.workflowRun(id: Fixture.id("idv")) == nil, "an unknown id must find nothing")
            try require(
                try await store.workflowRun(flowID: Fixture.id("flow")) == nil,
                "a flow without a run must find nothing"
            )
            var expired = Fixture.workflowRun(userID: user.id)
            expired.expiresAt = Fixture.now - 1
            try await store.createWorkflowRun(expired)
            try require(try await store.workflowRun(id: expired.id) == expired, "an expired run must still be found")
            try require(
                try await store.workflowRun(flowID: expired.flowID) == expired,
                "an expired run must still be found by its flow"
            )
        },
        StoreConformanceCheck("run ids are unique, a flow has one run, and a run needs a known user") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let first = Fixture.workflowRun(userID: user.id)
            try await store.createWorkflowRun(first)
            var sameID = Fixture.workflowRun(userID: user.id)
            sameID.id = first.id
            try await requireStoreError(.duplicate) { try await store.createWorkflowRun(sameID) }
            var sameFlow = Fixture.workflowRun(userID: user.id, purpose: .stepUp)
            sameFlow.flowID = first.flowID
            try await requireStoreError(.duplicate) { try await store.createWorkflowRun(sameFlow) }
            let stranger = Fixture.workflowRun(userID: Fixture.id("missing"))
            try await requireStoreError(.notFound) { try await store.createWorkflowRun(stranger) }
            try require(try await store.workflowRun(id: first.id) == first, "the first run must be unchanged")
            try require(
                try await store.workflowRun(flowID: first.flowID) == first,
                "the flow's run must still be the first"
            )
            try require(try await store.workflowRun(id: sameFlow.id) == nil, "a refused run must not be stored")
            try require(
                try await store.workflowRun(id: stranger.id) == nil,
                "a run for an unknown user must not be stored"
            )
            try require(
                try await store.workflowRun(flowID: stranger.flowID) == nil,
                "a run for an unknown user must not hold its flow"
            )
        },
        StoreConformanceCheck("a decision applies from an expected status, with its face match and time") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let run = Fixture.workflowRun(userID: user.id)
            try await store.createWorkflowRun(run)
            let approved = try await store.decideWorkflowRun(
                id: run.id,
                from: [.pending],
                to: .approved,
                faceMatch: .pass,
                at: Fixture.now + 10
            )
            var expected = run
            expected.status = .approved
            expected.faceMatch = .pass
            expected.updatedAt = Fixture.now + 10
            try require(
                approved == expected,
                "the decision must return the updated run: \(String(describing: approved))"
            )
            try require(try await store.workflowRun(id: run.id) == expected, "the decision must be stored")
            try require(
                try await store.workflowRun(flowID: run.flowID) == expected,
                "the flow's run must show the decision"
            )

            // A decision without a face match leaves the stored one.
            let reviewed = Fixture.workflowRun(userID: user.id, status: .review)
            try await store.createWorkflowRun(reviewed)
            let matched = try await store.decideWorkflowRun(
                id: reviewed.id,
                from: [.pending, .review],
                to: .review,
                faceMatch: .fail,
                at: Fixture.now + 1
            )
            try require(matched?.faceMatch == .fail, "the face match must be set")
            let declined = try await store.decideWorkflowRun(
                id: reviewed.id,
                from: [.pending, .review],
                to: .declined,
                faceMatch: nil,
                at: Fixture.now + 2
            )
            try require(
                declined?.status == .declined && declined?.faceMatch == .fail && declined?.updatedAt == Fixture.now + 2,
                "a nil face match must leave the stored one: \(String(describing: declined))"
            )
            try require(try await store.workflowRun(id: reviewed.id) == declined, "the decision must be stored")
        },
        StoreConformanceCheck("a decision from another status, of an unknown run or after expiry changes nothing") {
            store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let run = Fixture.workflowRun(userID: user.id, status: .approved)
            try await store.createWorkflowRun(run)
            for from: Set<WorkflowRunRecord.Status> in [[.pending], [.pending, .review, .declined], []] {
                let refused = try await store.decideWorkflowRun(
                    id: run.id,
                    from: from,
                    to: .declined,
                    faceMatch: .fail,
                    at: Fixture.now + 1
                )
                try require(refused == nil, "a decision from \(from.map(\.rawValue).sorted()) must return nil")
            }
            try require(try await store.workflowRun(id: run.id) == run, "a refused decision must change nothing")
            try require(
                try await store.decideWorkflowRun(
                    id: Fixture.id("idv"),
                    from: Set(WorkflowRunRecord.Status.allCases),
                    to: .approved,
                    faceMatch: nil,
                    at: Fixture.now
                ) == nil,
                "deciding an unknown run must return nil"
            )

            let expiring = Fixture.workflowRun(userID: user.id)
            try await store.createWorkflowRun(expiring)
            for time in [expiring.expiresAt, expiring.expiresAt + 60] {
                let late = try await store.decideWorkflowRun(
                    id: expiring.id,
                    from: [.pending],
                    to: .approved,
                    faceMatch: .pass,
                    at: time
                )
                try require(late == nil, "a decision when the run has expired must return nil")
            }
            try require(
                try await store.workflowRun(id: expiring.id) == expiring,
                "a decision after expiry must change nothing"
            )
            let inTime = try await store.decideWorkflowRun(
                id: expiring.id,
                from: [.pending],
                to: .approved,
                faceMatch: nil,
                at: expiring.expiresAt - 1
            )
            try require(
                inTime?.status == .approved && inTime?.faceMatch == nil,
                "a decision just before expiry must apply"
            )
        },
        StoreConformanceCheck("20 concurrent decisions of one pending run: exactly one wins") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let run = Fixture.workflowRun(userID: user.id)
            try await store.createWorkflowRun(run)
            let runID = run.id
            let winners = try await withThrowingTaskGroup(of: WorkflowRunRecord?.self) { group in
                for index in 0..<20 {
                    let approve = index.isMultiple(of: 2)
                    group.addTask {
                        try await store.decideWorkflowRun(
                            id: runID,
                            from: [.pending],
                            to: approve ? .approved : .declined,
                            faceMatch: approve ? .pass : .fail,
                            at: Fixture.now + TimeInterval(index + 1)
                        )
                    }
                }
                return try await group.compactMap { $0 }.reduce(into: [WorkflowRunRecord]()) { $0.append($1) }
            }
            try require(winners.count == 1, "\(winners.count) decisions succeeded; exactly one may")
            let stored = try await store.workflowRun(id: runID)
            try require(stored == winners.first, "the stored run must be the winner's: \(String(describing: stored))")
        },
        StoreConformanceCheck("deleting a user deletes their identity-verification runs") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let other = try await store.createUserIfAbsent(Fixture.user())
            let runs = [
                Fixture.workflowRun(userID: user.id), Fixture.workflowRun(userID: user.id, status: .approved),
            ]
            let kept = Fixture.workflowRun(userID: other.id)
            for run in runs + [kept] { try await store.createWorkflowRun(run) }
            try require(try await store.deleteUser(id: user.id), "the user must be deleted")
            for run in runs {
                try require(try await store.workflowRun(id: run.id) == nil, "a deleted user's run must be gone")
                try require(
                    try await store.workflowRun(flowID: run.flowID) == nil,
                    "a deleted user's flow must have no run"
                )
            }
            try require(try await store.workflowRun(id: kept.id) == kept, "another user's run must stay")
            // The flow is free again: a run of a new user may take it.
            let again = try await store.createUserIfAbsent(Fixture.user())
            var reused = Fixture.workflowRun(userID: again.id)
            reused.flowID = runs[0].flowID
            try await store.createWorkflowRun(reused)
            try require(
                try await store.workflowRun(flowID: reused.flowID) == reused,
                "the flow's new run must be found"
            )
        },
        StoreConformanceCheck("a credential keeps the identity-verification run it was created after") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id, status: .verifying)
            try await store.createFlow(flow)
            let run = Fixture.workflowRun(userID: user.id, status: .approved)
            try await store.createWorkflowRun(run)
            var verified = Fixture.credential(userID: user.id, name: "Verified", flowID: flow.id)
            verified.workflowRunID = run.id
            let plain = Fixture.credential(userID: user.id, name: "Plain", flowID: flow.id)
            for credential in [verified, plain] {
                try await store.insertCredential(
                    credential,
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(),
                    at: Fixture.now
                )
            }
            let readVerified = try await store.credential(id: verified.id)
            try require(
                readVerified == verified && readVerified?.workflowRunID == run.id,
                "the credential must read back its run: \(String(describing: readVerified?.workflowRunID))"
            )
            let readPlain = try await store.credential(id: plain.id)
            try require(
                readPlain == plain && readPlain?.workflowRunID == nil,
                "a credential without a run must read nil"
            )
            let listed = try await store.credentials(userID: user.id)
            try require(
                Set(listed) == [verified, plain],
                "the user's credentials must carry their runs: \(listed.map(\.workflowRunID))"
            )
            let used = try await store.recordSignIn(
                id: verified.id,
                expectedSignCount: 0,
                signCount: 1,
                backupState: true,
                at: Fixture.now + 1
            )
            try require(used?.workflowRunID == run.id, "a recorded use must keep the run")

            let reservedFlow = Fixture.flow(userID: user.id, status: .completed)
            try await store.createFlow(reservedFlow)
            var reserved = Fixture.credential(
                userID: user.id,
                name: "Reserved",
                status: .reserved,
                reservedUntil: Fixture.now + 60,
                flowID: reservedFlow.id
            )
            reserved.workflowRunID = run.id
            try await store.insertCredential(
                reserved,
                maximumActive: 10,
                flowID: reservedFlow.id,
                flowUpdate: FlowUpdate(),
                at: Fixture.now
            )
            let settled = try await store.settleReservation(
                flowID: reservedFlow.id,
                finalize: true,
                flowUpdate: FlowUpdate(status: .finalized),
                at: Fixture.now + 1
            )
            try require(settled?.workflowRunID == run.id, "a settled reservation must keep the run")
            try require(
                try await store.credential(id: reserved.id)?.workflowRunID == run.id,
                "a finalized credential must keep the run"
            )
        },
    ]
}

extension Fixture {
    /// A run of a new flow, created now and updated at creation, that expires in ten minutes.
    static func workflowRun(
        userID: String,
        purpose: WorkflowRunRecord.Purpose = .enrollment,
        status: WorkflowRunRecord.Status = .pending
    ) -> WorkflowRunRecord {
        WorkflowRunRecord(
            id: id("idv"),
            purpose: purpose,
            userID: userID,
            flowID: id("flow"),
            status: status,
            createdAt: now,
            updatedAt: now,
            expiresAt: now + 600
        )
    }
}
