import Foundation

extension MemoryPasskeyStore {
    /// Ends every flow of the user that is in flight, as a reset of the user does (see ``PasskeyStore``): their
    /// flows in flight, their unredeemed sign-ins and their registrations holding a reservation are aborted (their
    /// challenges cleared), the reservations released, their handoffs rejected and their open recovery attempts
    /// cancelled, and their refresh-token families revoked. The one place the memory store does it; every reset calls
    /// it.
    func endFlowsInFlight(ofUser userID: String, at time: Date) {
        let reserving = Set(
            credentialsByID.values.filter { $0.userID == userID && $0.status == .reserved }.compactMap(\.flowID)
        )
        for (id, session) in crossPlatformSessionsByID
        where CrossPlatformSessionRecord.Status.inFlight.contains(session.status)
            && flows[session.flowID]?.userID == userID
        {
            var ended = session
            ended.status = .rejected
            ended.updatedAt = time
            crossPlatformSessionsByID[id] = ended
        }
        for (id, flow) in flows
        where flow.userID == userID
            && (FlowStatus.inFlight.contains(flow.status)
                || (flow.status == .completed && (flow.kind == .authentication || reserving.contains(id))))
        {
            flows[id] = FlowUpdate(status: .aborted, clearChallenge: true).applied(to: flow, at: time)
        }
        credentialsByID = credentialsByID.filter { !($0.value.userID == userID && $0.value.status == .reserved) }
        for (id, attempt) in recoveryAttemptsByID
        where attempt.userID == userID && (attempt.status == .pending || attempt.status == .exchanged) {
            var cancelled = attempt
            cancelled.status = .cancelled
            cancelled.updatedAt = time
            recoveryAttemptsByID[id] = cancelled
        }
        for (id, family) in refreshTokenFamiliesByID where family.userID == userID && family.revokedAt == nil {
            var revoked = family
            revoked.revokedAt = time
            revoked.revocation = .reset
            refreshTokenFamiliesByID[id] = revoked
        }
    }
}
