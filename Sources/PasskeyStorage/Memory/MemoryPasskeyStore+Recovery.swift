public import Foundation

extension MemoryPasskeyStore: RecoveryStore {
    public func createRecoveryAttempt(_ attempt: RecoveryAttemptRecord) throws(StoreError) {
        guard recoveryAttemptsByID[attempt.id] == nil else {
            throw StoreError(.duplicate, "A recovery attempt with id \(attempt.id) exists.")
        }
        guard users[attempt.userID] != nil else {
            throw StoreError(.notFound, "No user \(attempt.userID) for the recovery attempt.")
        }
        recoveryAttemptsByID[attempt.id] = attempt
    }

    public func recoveryAttempt(id: String) -> RecoveryAttemptRecord? { recoveryAttemptsByID[id] }

    public func exchangeRecoveryToken(
        attemptID: String,
        tokenHash: [UInt8],
        registrationFlow: FlowRecord,
        at time: Date
    ) throws(StoreError) -> RecoveryAttemptRecord? {
        guard var attempt = recoveryAttemptsByID[attemptID], attempt.status == .pending,
            attempt.tokenHash == tokenHash, attempt.expiresAt > time
        else { return nil }
        try createFlow(registrationFlow, audit: nil)
        attempt.status = .exchanged
        attempt.registrationFlowID = registrationFlow.id
        attempt.updatedAt = time
        recoveryAttemptsByID[attemptID] = attempt
        return attempt
    }

    public func finalizeRecovery(
        attemptID: String,
        revoking: RecoveryRevocation,
        at time: Date
    ) -> RecoveryFinalization? {
        guard var attempt = recoveryAttemptsByID[attemptID], attempt.status == .exchanged, attempt.expiresAt > time,
            let flowID = attempt.registrationFlowID, let flow = flows[flowID],
            var credential = credentialsByID.values.first(where: { $0.flowID == flowID && $0.status == .reserved }),
            credential.isLive(at: time)
        else { return nil }
        credential.status = .active
        credential.reservedUntil = nil
        credentialsByID[credential.id] = credential
        var revoked: [CredentialRecordRow] = []
        for var other in credentialsByID.values
        where other.userID == attempt.userID && other.id != credential.id && other.status != .revoked
            && revoking.revokes(backupEligible: other.backupEligible)
        {
            other.status = .revoked
            other.revokedAt = time
            credentialsByID[other.id] = other
            revoked.append(other)
        }
        attempt.status = .finalized
        attempt.updatedAt = time
        recoveryAttemptsByID[attemptID] = attempt
        flows[flowID] = FlowUpdate(status: .finalized).applied(to: flow, at: time)
        webSessionsByID = webSessionsByID.filter { $0.value.userID != attempt.userID }
        endFlowsInFlight(ofUser: attempt.userID, at: time)
        return RecoveryFinalization(
            attempt: attempt,
            credential: credential,
            revoked: revoked.sorted { $0.id.lexicographicallyPrecedes($1.id) }
        )
    }

    public func cancelRecoveryAttempt(id: String, at time: Date) -> RecoveryAttemptRecord? {
        guard var attempt = recoveryAttemptsByID[id], attempt.status == .pending || attempt.status == .exchanged
        else { return nil }
        if let flowID = attempt.registrationFlowID {
            credentialsByID = credentialsByID.filter { !($0.value.flowID == flowID && $0.value.status == .reserved) }
            if let flow = flows[flowID] { flows[flowID] = FlowUpdate(status: .aborted).applied(to: flow, at: time) }
        }
        attempt.status = .cancelled
        attempt.updatedAt = time
        recoveryAttemptsByID[id] = attempt
        return attempt
    }
}
