public import Foundation

extension MemoryPasskeyStore {
    public func userWithCredentials(id: String) -> UserCredentials? {
        guard let user = user(id: id) else { return nil }
        return UserCredentials(user: user, credentials: credentials(userID: id))
    }

    public func credentialWithOwner(id: [UInt8]) -> CredentialOwner? {
        guard let credential = credential(id: id), let owner = user(id: credential.userID) else { return nil }
        return CredentialOwner(credential: credential, owner: owner)
    }

    public func recordAuthentication(
        _ use: CredentialUse,
        flowID: String,
        expectedStatuses: Set<FlowStatus>,
        flowUpdate: FlowUpdate,
        at time: Date
    ) -> AuthenticationRecording {
        // The actor runs this to its end without a suspension: both writes happen together, or neither.
        guard let current = credential(id: use.credentialID), current.status == .active,
            current.signCount == use.expectedSignCount
        else { return .credentialNotRecorded(current: credential(id: use.credentialID)) }
        guard let flow = flow(id: flowID), expectedStatuses.contains(flow.status), flow.expiresAt > time else {
            return .flowNotUpdated
        }
        guard
            let credential = recordCredentialUse(
                id: use.credentialID,
                expectedSignCount: use.expectedSignCount,
                signCount: use.signCount,
                backupState: use.backupState,
                at: time
            ), let updated = updateFlow(id: flowID, expectedStatuses: expectedStatuses, at: time, update: flowUpdate)
        else { return .flowNotUpdated }
        return .recorded(credential: credential, flow: updated)
    }
}
