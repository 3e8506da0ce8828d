public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore {
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
        try await transaction(doing: "record the sign-in") { connection throws -> AuthenticationRecording in
            // Both rows locked before either is written: of racing calls, the later ones find what the first wrote.
            let current = try await connection.rows(
                """
                SELECT \(unescaped: Columns.list(Columns.credential)) FROM credentials
                WHERE id = \(use.credentialID.bytea) FOR UPDATE
                """
            ).first.map { row throws(StoreError) in try CredentialRecordRow(row) }
            guard let current, current.status == .active, current.signCount == use.expectedSignCount else {
                return .credentialNotRecorded(current: current)
            }
            let flow = try await connection.rows(
                "SELECT \(unescaped: Columns.list(Columns.flow)) FROM flows WHERE id = \(flowID) FOR UPDATE"
            ).first.map { row throws(StoreError) in try FlowRecord(row) }
            guard let flow, expectedStatuses.contains(flow.status), flow.expiresAt > time else {
                return .flowNotUpdated
            }
            let used = try await connection.rows(
                """
                UPDATE credentials
                SET sign_count = \(Int64(use.signCount)), backup_state = \(use.backupState), last_used_at = \(time)
                WHERE id = \(use.credentialID.bytea)
                RETURNING \(unescaped: Columns.list(Columns.credential))
                """
            ).first.map { row throws(StoreError) in try CredentialRecordRow(row) }
            let updated = try await connection.rows(
                Self.flowUpdate(id: flowID, update: flowUpdate, at: time, expectedStatuses: nil)
            ).first.map { row throws(StoreError) in try FlowRecord(row) }
            guard let used, let updated else {
                throw StoreError(.corrupt, "The locked credential or flow of a sign-in could not be updated.")
            }
            return .recorded(credential: used, flow: updated)
        }
    }
}
