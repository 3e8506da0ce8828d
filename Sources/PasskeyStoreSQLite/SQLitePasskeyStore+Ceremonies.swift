public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: CeremonyStore {
    public func insertCredential(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError) {
        try await insert(
            credential,
            maximumActive: maximumActive,
            signUp: nil,
            flowID: flowID,
            flowUpdate: flowUpdate,
            at: time,
            audit: audit
        )
    }

    public func insertFirstCredential(
        _ credential: CredentialRecordRow,
        displayName: String,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError) {
        try await insert(
            credential,
            maximumActive: 1,
            signUp: displayName,
            flowID: flowID,
            flowUpdate: flowUpdate,
            at: time,
            audit: audit
        )
    }

    /// `insertCredential`, and with `signUp` (the display name a sign-up asked for) `insertFirstCredential`.
    private func insert(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        signUp displayName: String?,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError) {
        let binds = try CredentialRows.binds(credential)
        try await auditedWrite(audit) { db in
            if displayName != nil {
                let onRecord = try db.rows(
                    "SELECT 1 FROM credentials WHERE user_id = ? AND status <> 'reserved' LIMIT 1",
                    [Bind.text(credential.userID)]
                )
                guard onRecord.isEmpty else {
                    throw StoreError(.limitReached, "The user has had a passkey: the account is not claimed again.")
                }
            }
            // A reservation that expired without being settled no longer holds its id: the new credential
            // replaces it. Both happen in this transaction, or neither.
            try db.execute(
                """
                DELETE FROM credentials
                WHERE id = ? AND status = 'reserved' AND (reserved_until IS NULL OR reserved_until <= ?)
                """,
                [Bind.bytes(credential.id), Bind.date(time)]
            )
            let live = try Self.liveCredentials(db, userID: credential.userID, nameKey: credential.nameKey, at: time)
            try CredentialInsertion.check(
                credential,
                idKept: try Self.credential(db, id: credential.id) != nil,
                live: live.count,
                liveWithNameKey: live.withName,
                maximumActive: maximumActive
            )
            guard let flow = try Self.flow(db, id: flowID) else {
                throw StoreError(.notFound, "No flow \(flowID).")
            }
            guard flow.status != .aborted else { throw StoreError(.flowEnded, "The flow \(flowID) was ended.") }
            guard try Self.user(db, where: "id = ?", Bind.text(credential.userID)) != nil else {
                throw StoreError(.notFound, "No user \(credential.userID) for the credential.")
            }
            try db.execute(
                "INSERT INTO credentials (\(CredentialRows.columns)) VALUES (\(CredentialRows.placeholders))",
                binds
            )
            try Self.write(db, flowUpdate.applied(to: flow, at: time))
            if let displayName {
                try db.execute(
                    "UPDATE users SET display_name = ? WHERE id = ?",
                    [Bind.text(displayName), Bind.text(credential.userID)]
                )
            }
        }
    }

    public func settleReservation(
        flowID: String,
        finalize: Bool,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError)
        -> CredentialRecordRow?
    {
        try await connection.session { db in
            let reserved = try db.rows(
                """
                SELECT \(CredentialRows.columns) FROM credentials
                WHERE flow_id = ? AND status = 'reserved' AND reserved_until > ? ORDER BY rowid LIMIT 1
                """,
                [Bind.text(flowID), Bind.date(time)]
            )
            guard var credential = try reserved.first.map(CredentialRows.decode), credential.isLive(at: time),
                let flow = try Self.flow(db, id: flowID)
            else { return nil }
            if finalize {
                try db.execute(
                    "UPDATE credentials SET status = 'active', reserved_until = NULL WHERE id = ?",
                    [Bind.bytes(credential.id)]
                )
                credential.status = .active
                credential.reservedUntil = nil
            } else {
                try db.execute("DELETE FROM credentials WHERE id = ?", [Bind.bytes(credential.id)])
            }
            try Self.write(db, flowUpdate.applied(to: flow, at: time))
            return credential
        }
    }

    public func recordAuthentication(
        _ use: CredentialUse,
        flowID: String,
        expectedStatuses: Set<FlowStatus>,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError) -> AuthenticationRecording {
        try await auditedWrite(audit, if: \.isRecorded) { db in
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
