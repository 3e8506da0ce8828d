import Foundation
import PasskeyStorage

extension StoreConformance {
    static let workflowRunEvents: [StoreConformanceCheck] = [
        StoreConformanceCheck("a run stored before its provider answered: reference recorded, or released if pending") {
            store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let run = Fixture.workflowRun(userID: user.id)
            try await store.createWorkflowRun(run)
            try require(
                try await store.setWorkflowRunVendorReference(id: run.id, vendorReference: "vendor-7"),
                "setting the vendor reference of a known run must say so"
            )
            var referenced = run
            referenced.vendorReference = "vendor-7"
            try require(try await store.workflowRun(id: run.id) == referenced, "the reference must be stored")
            try require(
                !(try await store.setWorkflowRunVendorReference(id: Fixture.id("idv"), vendorReference: "x")),
                "an unknown run has no reference to set"
            )
            try require(try await store.releaseWorkflowRun(id: run.id), "a pending run must be released")
            try require(try await store.workflowRun(id: run.id) == nil, "a released run must be gone")
            try require(try await store.workflowRun(flowID: run.flowID) == nil, "its flow must have no run")
            var again = Fixture.workflowRun(userID: user.id)
            again.flowID = run.flowID
            try await store.createWorkflowRun(again)
            try require(try await store.workflowRun(flowID: run.flowID) == again, "the flow may start a run again")

            let decided = Fixture.workflowRun(userID: user.id, status: .approved)
            try await store.createWorkflowRun(decided)
            try require(!(try await store.releaseWorkflowRun(id: decided.id)), "a decided run must not be released")
            try require(try await store.workflowRun(id: decided.id) == decided, "a decided run must stay")
            try require(!(try await store.releaseWorkflowRun(id: Fixture.id("idv"))), "an unknown run is not released")
        },
        StoreConformanceCheck("a decision event is spent with its decision, and only then") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let run = Fixture.workflowRun(userID: user.id)
            try await store.createWorkflowRun(run)
            let event = Fixture.bytes()
            let unknown = try await store.decideWorkflowRun(
                id: Fixture.id("idv"),
                from: [.pending],
                to: .approved,
                faceMatch: .pass,
                at: Fixture.now + 1,
                eventKeyHash: event,
                eventWindow: 600
            )
            try require(unknown == .refused, "an event for an unknown run must be refused: \(unknown)")
            let first = try await store.decideWorkflowRun(
                id: run.id,
                from: [.pending],
                to: .approved,
                faceMatch: .pass,
                at: Fixture.now + 2,
                eventKeyHash: event,
                eventWindow: 600
            )
            var expected = run
            expected.status = .approved
            expected.faceMatch = .pass
            expected.updatedAt = Fixture.now + 2
            try require(first == .decided(expected), "after a refused delivery the event must still decide: \(first)")
            try require(try await store.workflowRun(id: run.id) == expected, "the decision must be stored")
            let replay = try await store.decideWorkflowRun(
                id: run.id,
                from: [.approved],
                to: .declined,
                faceMatch: nil,
                at: Fixture.now + 3,
                eventKeyHash: event,
                eventWindow: 600
            )
            try require(replay == .replayed, "a spent event must be replayed: \(replay)")
            try require(try await store.workflowRun(id: run.id) == expected, "a replay must change nothing")

            let other = Fixture.bytes()
            let decidedAlready = try await store.decideWorkflowRun(
                id: run.id,
                from: [.pending],
                to: .declined,
                faceMatch: nil,
                at: Fixture.now + 4,
                eventKeyHash: other,
                eventWindow: 600
            )
            try require(decidedAlready == .refused, "a decided run must refuse: \(decidedAlready)")
            let later = Fixture.workflowRun(userID: user.id)
            try await store.createWorkflowRun(later)
            let unspent = try await store.decideWorkflowRun(
                id: later.id,
                from: [.pending],
                to: .review,
                faceMatch: nil,
                at: Fixture.now + 5,
                eventKeyHash: other,
                eventWindow: 600
            )
            try require(unspent.run?.status == .review, "a refused event must be usable again: \(unspent)")
        },
        StoreConformanceCheck("20 concurrent deliveries of one event to a run under review: exactly one decides") {
            store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let run = Fixture.workflowRun(userID: user.id, status: .review)
            try await store.createWorkflowRun(run)
            let runID = run.id
            let event = Fixture.bytes()
            let outcomes = try await withThrowingTaskGroup(of: WorkflowRunEventOutcome.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await store.decideWorkflowRun(
                            id: runID,
                            from: [.pending, .review],
                            to: .review,
                            faceMatch: nil,
                            at: Fixture.now + TimeInterval(index + 1),
                            eventKeyHash: event,
                            eventWindow: 600
                        )
                    }
                }
                return try await group.reduce(into: [WorkflowRunEventOutcome]()) { $0.append($1) }
            }
            let decided = outcomes.filter { $0.run != nil }
            try require(decided.count == 1, "\(decided.count) deliveries decided; exactly one may")
            try require(outcomes.filter { $0 == .replayed }.count == 19, "the others must be replays: \(outcomes)")
        },
    ]
}

extension WorkflowRunEventOutcome {
    fileprivate var run: WorkflowRunRecord? {
        if case .decided(let run) = self { return run }
        return nil
    }
}
