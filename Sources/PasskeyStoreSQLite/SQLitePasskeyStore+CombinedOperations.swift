public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore {
    public func userWithCredentials(id: String) async throws(StoreError) -> UserCredentials? {
        try await connection.session { db in
            guard let user = try Self.user(db, where: "id = ?", Bind.text(id)) else { return nil }
            return UserCredentials(user: user, credentials: try Self.credentials(db, userID: id))
        }
    }

    public func credentialWithOwner(id: [UInt8]) async throws(StoreError) -> CredentialOwner? {
        try await connection.session { db in
            guard let credential = try Self.credential(db, id: id),
                let owner = try Self.user(db, where: "id = ?", Bind.text(credential.userID))
            else { return nil }
            return CredentialOwner(credential: credential, owner: owner)
        }
    }

    public func recordAuthentication(
        _ use: CredentialUse,
        flowID: String,
        expectedStatuses: Set<FlowStatus>,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) -> AuthenticationRecording {
        try await connection.session { db in
            let current = try Self.credential(db, id: use.credentialID)
            guard let current, current.status == .active, current.signCount == use.expectedSignCount else {
                return .credentialNotRecorded(current: current)
            }
            guard let flow = try Self.flow(db, id: flowID), expectedStatuses.contains(flow.status),
                flow.expiresAt > time
            else { return .flowNotUpdated }
            var used = current
            used.signCount = use.signCount
            used.backupState = use.backupState
            used.lastUsedAt = time
            try db.execute(
                "UPDATE credentials SET sign_count = ?, backup_state = ?, last_used_at = ? WHERE id = ?",
                [
                    Bind.integer(Int64(use.signCount)), Bind.bool(use.backupState), Bind.date(time),
                    Bind.bytes(use.credentialID),
                ]
            )
            let updated = flowUpdate.applied(to: flow, at: time)
            try Self.write(db, updated)
            return .recorded(credential: used, flow: updated)
        }
    }
}
