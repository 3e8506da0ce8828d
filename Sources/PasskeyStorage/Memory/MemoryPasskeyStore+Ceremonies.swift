public import Foundation

extension MemoryPasskeyStore: CeremonyStore {
    public func insertCredential(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) throws(StoreError) {
        try auditedWrite(audit) { () throws(StoreError) in
            try insert(credential, maximumActive: maximumActive, flowID: flowID, flowUpdate: flowUpdate, at: time)
        }
    }

    public func insertFirstCredential(
        _ credential: CredentialRecordRow,
        displayName: String,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) throws(StoreError) {
        try auditedWrite(audit) { () throws(StoreError) in
            let onRecord = credentialsByID.values.count { $0.userID == credential.userID && $0.status != .reserved }
            guard onRecord == 0 else {
                throw StoreError(.limitReached, "The user has had a passkey: the account is not claimed again.")
            }
            try insert(credential, maximumActive: 1, flowID: flowID, flowUpdate: flowUpdate, at: time)
            users[credential.userID]?.displayName = displayName
        }
    }

    private func insert(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) throws(StoreError) {
        guard users[credential.userID] != nil else { throw StoreError(.notFound, "No user \(credential.userID).") }
        let live = liveCredentials(of: credential.userID, at: time)
        try CredentialInsertion.check(
            credential,
            idKept: credentialsByID[credential.id].map { CredentialInsertion.keepsID($0, at: time) } ?? false,
            live: live.count,
            liveWithNameKey: live.count { $0.nameKey == credential.nameKey },
            maximumActive: maximumActive
        )
        guard let flow = flows[flowID] else { throw StoreError(.notFound, "No flow \(flowID).") }
        guard flow.status != .aborted else { throw StoreError(.flowEnded, "The flow \(flowID) was ended.") }
        credentialsByID[credential.id] = credential
        flows[flowID] = flowUpdate.applied(to: flow, at: time)
    }

    public func settleReservation(
        flowID: String,
        finalize: Bool,
        flowUpdate: FlowUpdate,
        at time: Date
    ) -> CredentialRecordRow? {
        guard var credential = credentialsByID.values.first(where: { $0.flowID == flowID && $0.status == .reserved }),
            credential.isLive(at: time), let flow = flows[flowID]
        else { return nil }
        if finalize {
            credential.status = .active
            credential.reservedUntil = nil
            credentialsByID[credential.id] = credential
        } else {
            credentialsByID[credential.id] = nil
        }
        flows[flowID] = flowUpdate.applied(to: flow, at: time)
        return credential
    }

    public func recordAuthentication(
        _ use: CredentialUse,
        flowID: String,
        expectedStatuses: Set<FlowStatus>,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) throws(StoreError) -> AuthenticationRecording {
        try auditedWrite(audit, if: \.isRecorded) {
            // The actor runs this to its end without a suspension: both writes happen together, or neither.
            guard var used = credentialsByID[use.credentialID], used.status == .active,
                used.signCount == use.expectedSignCount
            else { return .credentialNotRecorded(current: credentialsByID[use.credentialID]) }
            guard let flow = flows[flowID], expectedStatuses.contains(flow.status), flow.expiresAt > time else {
                return .flowNotUpdated
            }
            used.signCount = use.signCount
            used.backupState = use.backupState
            used.lastUsedAt = time
            credentialsByID[used.id] = used
            let updated = flowUpdate.applied(to: flow, at: time)
            flows[flowID] = updated
            return .recorded(credential: used, flow: updated)
        }
    }
}
