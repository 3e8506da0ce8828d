import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PostgresTestSupport
import Testing

/// Deciding an identity-verification run is a compare-and-set across processes: of decisions from the same status
/// made through two stores at once, one wins; and a flow gets one run, whichever process creates it.
extension PostgresMultiProcessTests {
    /// A pending run of a new user, created through `store`, that expires in ten minutes.
    static func pendingRun(in store: PostgresPasskeyStore) async throws -> WorkflowRunRecord {
        let id = "user-\(UUID())"
        let user = try await store.createUserIfAbsent(
            UserRecord(id: id, handle: bytes(), name: id, displayName: "Ada", createdAt: now)
        )
        let run = WorkflowRunRecord(
            id: "idv_\(UUID())",
            purpose: .enrollment,
            userID: user.id,
            flowID: "flow-\(UUID())",
            status: .pending,
            createdAt: now,
            updatedAt: now,
            expiresAt: now + 600
        )
        try await store.createWorkflowRun(run)
        return run
    }

    @Test("10 runs, each decided 20 times at once through both stores (half approve, half decline): one wins each")
    func decisionRace() async throws {
        try await withTwoStores("idv_decide") { stores in
            for _ in 0..<10 {
                let run = try await Self.pendingRun(in: stores[0])
                let runID = run.id
                let winners = try await withThrowingTaskGroup(of: WorkflowRunRecord?.self) { group in
                    for index in 0..<20 {
                        let store = stores[index % stores.count]
                        let approve = (index / 2).isMultiple(of: 2)
                        group.addTask {
                            try await store.decideWorkflowRun(
                                id: runID,
                                from: [.pending],
                                to: approve ? .approved : .declined,
                                faceMatch: approve ? .pass : .fail,
                                at: Self.now + TimeInterval(index + 1)
                            )
                        }
                    }
                    return try await group.compactMap { $0 }.reduce(into: [WorkflowRunRecord]()) { $0.append($1) }
                }
                #expect(winners.count == 1)
                for store in stores {
                    #expect(try await store.workflowRun(id: runID) == winners.first)
                }
            }
        }
    }

    @Test("a run decided through one store is decided for the other")
    func decisionSeenElsewhere() async throws {
        try await withTwoStores("idv_seen") { stores in
            let run = try await Self.pendingRun(in: stores[0])
            let approved = try await stores[0].decideWorkflowRun(
                id: run.id,
                from: [.pending],
                to: .approved,
                faceMatch: .pass,
                at: Self.now + 1
            )
            #expect(approved?.status == .approved)
            let late = try await stores[1].decideWorkflowRun(
                id: run.id,
                from: [.pending],
                to: .declined,
                faceMatch: .fail,
                at: Self.now + 2
            )
            #expect(late == nil)
            #expect(try await stores[1].workflowRun(flowID: run.flowID) == approved)
        }
    }

    @Test("runs for one flow created through both stores at once: one is stored, the other is a duplicate")
    func oneRunPerFlow() async throws {
        try await withTwoStores("idv_flow") { stores in
            let existing = try await Self.pendingRun(in: stores[0])
            let flowID = "flow-\(UUID())"
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for store in stores {
                    group.addTask {
                        var run = existing
                        run.id = "idv_\(UUID())"
                        run.flowID = flowID
                        do {
                            try await store.createWorkflowRun(run)
                            return true
                        } catch let error as StoreError where error.code == .duplicate {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.count(where: { $0 }) == 1 && results.count == 2)
            #expect(try await stores[1].workflowRun(flowID: flowID)?.flowID == flowID)
        }
    }
}
