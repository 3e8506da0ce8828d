public import Foundation

extension MemoryPasskeyStore: FlowStore {
    public func createFlow(_ flow: FlowRecord, audit: AuditAppend?) throws(StoreError) {
        try auditedWrite(audit) { () throws(StoreError) in
            guard flows[flow.id] == nil else { throw StoreError(.duplicate, "A flow with id \(flow.id) exists.") }
            flows[flow.id] = flow
        }
    }

    public func flow(id: String) -> FlowRecord? { flows[id] }

    public func updateFlow(
        id: String,
        expectedStatuses: Set<FlowStatus>,
        at time: Date,
        update: FlowUpdate
    ) -> FlowRecord? {
        guard let flow = flows[id], expectedStatuses.contains(flow.status), flow.expiresAt > time else { return nil }
        let updated = update.applied(to: flow, at: time)
        flows[id] = updated
        return updated
    }

    public func consumeChallenge(flowID: String, challengeHash: [UInt8], at time: Date) -> FlowRecord? {
        guard let flow = flows[flowID], flow.challengeHash == challengeHash, let expiry = flow.challengeExpiresAt,
            expiry > time
        else {
            return nil
        }
        flows[flowID] = FlowUpdate(status: .verifying, clearChallenge: true).applied(to: flow, at: time)
        return flow
    }

    public func redeemResult(flowID: String, resultTokenHash: [UInt8], at time: Date) -> FlowRecord? {
        guard let flow = flows[flowID], flow.status == .completed, flow.resultTokenHash == resultTokenHash,
            let expiry = flow.resultExpiresAt, expiry > time
        else { return nil }
        flows[flowID] = FlowUpdate(status: .redeemed).applied(to: flow, at: time)
        return flow
    }

    public func purgedRegistration(id: String) -> Date? {
        purgedRegistrations[id]?.purgedAt
    }
}
