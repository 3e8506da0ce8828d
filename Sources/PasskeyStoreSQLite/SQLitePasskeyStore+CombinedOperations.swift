public import Foundation
public import PasskeyStorage
import SQLiteNIO

extension SQLitePasskeyStore {
    public func userWithCredentials(id: String) async throws(StoreError) -> UserCredentials? {
        guard let user = try await user(id: id) else { return nil }
        return UserCredentials(user: user, credentials: try await credentials(userID: id))
    }

    public func credentialWithOwner(id: [UInt8]) async throws(StoreError) -> CredentialOwner? {
        guard let credential = try await credential(id: id), let owner = try await user(id: credential.userID) else {
            return nil
        }
        return CredentialOwner(credential: credential, owner: owner)
    }

    public func recordAuthentication(
        _ use: CredentialUse,
        flowID: String,
        expectedStatuses: Set<FlowStatus>,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) -> AuthenticationRecording {
        try await lease.withTransaction { session in
            let current = try await Self.credential(session, id: use.credentialID)
            guard let current, current.status == .active, current.signCount == use.expectedSignCount else {
                return .credentialNotRecorded(current: current)
            }
            guard let flow = try await Self.flow(session, id: flowID), expectedStatuses.contains(flow.status),
                flow.expiresAt > time
            else { return .flowNotUpdated }
            var used = current
            used.signCount = use.signCount
            used.backupState = use.backupState
            used.lastUsedAt = time
            try await session.execute(
                "UPDATE credentials SET sign_count = ?, backup_state = ?, last_used_at = ? WHERE id = ?",
                [
                    Bind.integer(Int64(use.signCount)), Bind.bool(use.backupState), Bind.date(time),
                    Bind.bytes(use.credentialID),
                ]
            )
            let updated = flowUpdate.applied(to: flow, at: time)
            try await Self.write(session, updated)
            return .recorded(credential: used, flow: updated)
        }
    }
}
