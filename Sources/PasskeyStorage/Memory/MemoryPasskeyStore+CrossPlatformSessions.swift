public import Foundation

extension MemoryPasskeyStore: CrossPlatformSessionStore {
    public func createCrossPlatformSession(
        _ session: CrossPlatformSessionRecord,
        flowPayload: [UInt8],
        at time: Date
    ) throws(StoreError) -> Bool {
        guard
            crossPlatformSessionsByID[session.id] == nil,
            !crossPlatformSessionsByID.values.contains(where: { $0.handoffTokenHash == session.handoffTokenHash })
        else {
            throw StoreError(.duplicate, "A cross-platform session with this id or handoff token exists.")
        }
        guard let flow = flows[session.flowID] else {
            throw StoreError(.notFound, "No flow \(session.flowID) to hand over.")
        }
        guard flow.status == .created, flow.expiresAt > time else { return false }
        flows[flow.id] = FlowUpdate(status: .handedOff, payload: flowPayload).applied(to: flow, at: time)
        crossPlatformSessionsByID[session.id] = session
        return true
    }

    public func crossPlatformSession(id: String) -> CrossPlatformSessionRecord? { crossPlatformSessionsByID[id] }

    public func crossPlatformSession(handoffTokenHash: [UInt8]) -> CrossPlatformSessionRecord? {
        crossPlatformSessionsByID.values.first { $0.handoffTokenHash == handoffTokenHash }
    }

    public func crossPlatformSession(flowID: String) -> CrossPlatformSessionRecord? {
        crossPlatformSessionsByID.values.first { $0.flowID == flowID }
    }

    public func crossPlatformSessions(ids: [String]) -> [CrossPlatformSessionFlow] {
        ids.compactMap { id in
            guard let session = crossPlatformSessionsByID[id], let flow = flows[session.flowID] else { return nil }
            return CrossPlatformSessionFlow(session: session, flow: flow)
        }
    }

    public func claimCrossPlatformSession(
        handoffTokenHash: [UInt8],
        clientTokenHash: [UInt8],
        at time: Date
    ) -> CrossPlatformSessionRecord? {
        guard var session = crossPlatformSession(handoffTokenHash: handoffTokenHash), session.status == .pending,
            session.handoffExpiresAt > time, var flow = flows[session.flowID]
        else { return nil }
        session.status = .claimed
        session.clientTokenHash = clientTokenHash
        session.updatedAt = time
        flow.clientTokenHash = clientTokenHash
        flow.updatedAt = time
        crossPlatformSessionsByID[session.id] = session
        flows[flow.id] = flow
        return session
    }

    public func updateCrossPlatformSession(
        id: String,
        from: Set<CrossPlatformSessionRecord.Status>,
        to status: CrossPlatformSessionRecord.Status,
        at time: Date
    ) -> CrossPlatformSessionRecord? {
        guard var session = crossPlatformSessionsByID[id], from.contains(session.status), session.expiresAt > time
        else { return nil }
        session.status = status
        session.updatedAt = time
        crossPlatformSessionsByID[id] = session
        return session
    }

    public func countCrossPlatformCodeFailure(id: String, rejectAt: Int, at time: Date) -> CrossPlatformSessionRecord? {
        guard var session = crossPlatformSessionsByID[id], session.status == .claimed, session.expiresAt > time
        else { return nil }
        session.codeFailures += 1
        if session.codeFailures >= rejectAt { session.status = .rejected }
        session.updatedAt = time
        crossPlatformSessionsByID[id] = session
        return session
    }

    /// A session goes with its flow, as the database adapters' foreign key does.
    func dropOrphanedCrossPlatformSessions() {
        crossPlatformSessionsByID = crossPlatformSessionsByID.filter { flows[$0.value.flowID] != nil }
    }
}
