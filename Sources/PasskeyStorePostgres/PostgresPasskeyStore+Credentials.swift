public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore {
    public func credential(id: [UInt8]) async throws(StoreError) -> CredentialRecordRow? {
        try await rows(ReadCredential(id: id), doing: "read the credential").first.map { row throws(StoreError) in
            try CredentialRecordRow(row)
        }
    }

    public func credentials(userID: String) async throws(StoreError) -> [CredentialRecordRow] {
        var credentials: [CredentialRecordRow] = []
        for row in try await rows(ListCredentials(userID: userID), doing: "list the user's credentials") {
            credentials.append(try CredentialRecordRow(row))
        }
        return credentials
    }

    public func renameCredential(
        id: [UInt8],
        name: String,
        nameKey: String,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow? {
        try await transaction(doing: "rename the credential") { connection throws -> CredentialRecordRow? in
            guard let userID = try await Self.owner(ofCredential: id, on: connection) else { return nil }
            // A user deleted meanwhile took the credential along.
            guard try await Self.lockUser(userID, on: connection) else { return nil }
            let locked = try await connection.rows(
                "SELECT status FROM credentials WHERE id = \(id.bytea) AND status <> 'revoked' FOR UPDATE"
            )
            guard !locked.isEmpty else { return nil }
            let taken = try await connection.rows(
                """
                SELECT 1 FROM credentials
                WHERE user_id = \(userID) AND id <> \(id.bytea) AND name_key = \(nameKey)
                    AND (status = 'active' OR (status = 'reserved' AND reserved_until > \(time)))
                """
            )
            guard taken.isEmpty else {
                throw StoreError(.nameTaken, "Another credential of this user is named '\(name)'.")
            }
            return try await connection.rows(
                """
                UPDATE credentials SET name = \(name), name_key = \(nameKey) WHERE id = \(id.bytea)
                RETURNING \(unescaped: Columns.list(Columns.credential))
                """
            ).first.map { row throws(StoreError) in try CredentialRecordRow(row) }
        }
    }

    public func recordCredentialUse(
        id: [UInt8],
        expectedSignCount: UInt32,
        signCount: UInt32,
        backupState: Bool,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow? {
        // One conditional UPDATE: a racing use or revocation that locked the row first makes this one check its
        // conditions again against what that one committed, and match nothing.
        try await rows(
            """
            UPDATE credentials
            SET sign_count = \(Int64(signCount)), backup_state = \(backupState), last_used_at = \(time)
            WHERE id = \(id.bytea) AND status = 'active' AND sign_count = \(Int64(expectedSignCount))
            RETURNING \(unescaped: Columns.list(Columns.credential))
            """,
            doing: "record the credential's use"
        )
        .first.map { row throws(StoreError) in try CredentialRecordRow(row) }
    }

    public func revokeCredential(id: [UInt8], at time: Date) async throws(StoreError) -> CredentialRecordRow? {
        // The user's lock first, as every insert of a credential takes it; then the revocation and, when it revoked,
        // the end of the user's flows in flight.
        try await transaction(doing: "revoke the credential") { connection throws -> CredentialRecordRow? in
            guard let owner = try await Self.owner(ofCredential: id, on: connection),
                try await Self.lockUser(owner, on: connection),
                let row = try await connection.rows(
                    """
                    UPDATE credentials SET status = 'revoked', revoked_at = \(time)
                    WHERE id = \(id.bytea) AND status <> 'revoked'
                    RETURNING \(unescaped: Columns.list(Columns.credential))
                    """
                ).first
            else { return nil }
            _ = try await Self.endFlowsInFlight(ofUser: owner, at: time, on: connection)
            return try CredentialRecordRow(row)
        }
    }

    public func insertCredential(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) {
        try await insert(
            credential,
            maximumActive: maximumActive,
            signUp: nil,
            flowID: flowID,
            flowUpdate: flowUpdate,
            at: time
        )
    }

    public func insertFirstCredential(
        _ credential: CredentialRecordRow,
        displayName: String,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) {
        try await insert(
            credential,
            maximumActive: 1,
            signUp: displayName,
            flowID: flowID,
            flowUpdate: flowUpdate,
            at: time
        )
    }

    /// `insertCredential`, and with `signUp` (the display name a sign-up asked for) `insertFirstCredential`.
    private func insert(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        signUp displayName: String?,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) {
        try await transaction(doing: "insert the credential") { connection in
            // The user's row lock serialises every insert for this user, in any process: the count and the name
            // check below hold until this transaction commits.
            guard try await Self.lockUser(credential.userID, on: connection) else {
                throw StoreError(.notFound, "No user \(credential.userID).")
            }
            if let displayName {
                let onRecord = try await connection.rows(
                    "SELECT 1 FROM credentials WHERE user_id = \(credential.userID) AND status <> 'reserved' LIMIT 1"
                )
                guard onRecord.isEmpty else {
                    throw StoreError(.limitReached, "The user has had a passkey: the account is not claimed again.")
                }
                try await connection.rows(
                    "UPDATE users SET display_name = \(displayName) WHERE id = \(credential.userID)"
                )
            }
            // A reservation that expired without being settled no longer holds its id: the new credential replaces
            // it. The DELETE takes the row's lock, so it waits for a transaction settling or replacing the same
            // row in another process, then re-checks the row as that transaction left it; the SELECT below then
            // sees what it committed.
            try await connection.rows(DeleteExpiredReservation(id: credential.id, time: time))
            let known = try await connection.rows(CredentialExists(id: credential.id))
            var liveNameKeys: [String] = []
            for row in try await connection.rows(LiveNameKeys(userID: credential.userID, time: time)) {
                liveNameKeys.append(try RowReader(row, record: "credential")("name_key"))
            }
            try CredentialInsertion.check(
                credential,
                idKept: !known.isEmpty,
                live: liveNameKeys.count,
                liveWithNameKey: liveNameKeys.count { $0 == credential.nameKey },
                maximumActive: maximumActive
            )
            // A reset of the user ends their flows under the same user lock: an ended flow stays ended here.
            guard try await connection.rows("SELECT 1 FROM flows WHERE id = \(flowID) AND status = 'aborted'").isEmpty
            else { throw StoreError(.flowEnded, "The flow \(flowID) was ended.") }
            let flow = try await connection.rows(
                UpdateFlow(id: flowID, update: flowUpdate, at: time, expectedStatuses: nil)
            )
            guard !flow.isEmpty else { throw StoreError(.notFound, "No flow \(flowID).") }
            try await connection.rows(InsertCredential(credential: credential))
        }
    }

    public func settleReservation(
        flowID: String,
        finalize: Bool,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow? {
        try await transaction(doing: finalize ? "finalize the reservation" : "release the reservation") {
            connection throws -> CredentialRecordRow? in
            let reservedOf = "flow_id = $1 AND status = 'reserved' AND reserved_until > $2"
            let candidates = try await connection.rows(
                PostgresQuery(
                    unsafeSQL: "SELECT user_id FROM credentials WHERE \(reservedOf) LIMIT 1",
                    binds: Self.binds(flowID, time)
                )
            )
            guard let candidate = candidates.first else { return nil }
            let userID: String = try RowReader(candidate, record: "credential")("user_id")
            // Locks in the order every operation takes them: the user, then the credential, then the flow.
            guard try await Self.lockUser(userID, on: connection) else { return nil }
            let reserved = try await connection.rows(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT \(Columns.list(Columns.credential)) FROM credentials
                        WHERE \(reservedOf) AND user_id = $3 ORDER BY created_at LIMIT 1 FOR UPDATE
                        """,
                    binds: Self.binds(flowID, time, userID)
                )
            )
            guard let row = reserved.first else { return nil }
            var credential = try CredentialRecordRow(row)
            guard try await !connection.rows("SELECT 1 FROM flows WHERE id = \(flowID) FOR UPDATE").isEmpty else {
                return nil
            }
            if finalize {
                try await connection.rows(
                    "UPDATE credentials SET status = 'active', reserved_until = NULL WHERE id = \(credential.id.bytea)"
                )
                credential.status = .active
                credential.reservedUntil = nil
            } else {
                try await connection.rows("DELETE FROM credentials WHERE id = \(credential.id.bytea)")
            }
            try await connection.rows(UpdateFlow(id: flowID, update: flowUpdate, at: time, expectedStatuses: nil))
            return credential
        }
    }

    // MARK: Helpers

    static func binds(_ first: String, _ time: Date, _ third: String? = nil) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(first)
        binds.append(time)
        if let third { binds.append(third) }
        return binds
    }

    /// Takes the user's row lock for the rest of the transaction. False when there is no such user.
    static func lockUser(_ userID: String, on connection: PostgresConnection) async throws -> Bool {
        try await !connection.rows(LockUser(id: userID)).isEmpty
    }

    static func owner(ofCredential id: [UInt8], on connection: PostgresConnection) async throws -> String? {
        guard let row = try await connection.rows("SELECT user_id FROM credentials WHERE id = \(id.bytea)").first else {
            return nil
        }
        return try RowReader(row, record: "credential")("user_id")
    }
}

struct ReadCredential: StoreStatement {
    static let sql = "SELECT \(Columns.list(Columns.credential)) FROM credentials WHERE id = $1"
    let id: [UInt8]

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(id.bytea)
        return binds
    }
}

/// A user's credentials that are not revoked, in the order of the contract.
struct ListCredentials: StoreStatement {
    static let sql = """
        SELECT \(Columns.list(Columns.credential)) FROM credentials
        WHERE user_id = $1 AND status <> 'revoked'
        ORDER BY created_at, id
        """
    let userID: String

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(userID)
        return binds
    }
}

/// Takes the user's row lock for the rest of the transaction; no row when there is no such user.
struct LockUser: StoreStatement {
    static let sql = "SELECT 1 FROM users WHERE id = $1 FOR UPDATE"
    let id: String

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(id)
        return binds
    }
}

/// Deletes the credential with the id when it is a reservation that expired at `time`.
struct DeleteExpiredReservation: StoreStatement {
    static let sql = """
        DELETE FROM credentials
        WHERE id = $1 AND status = 'reserved' AND (reserved_until IS NULL OR reserved_until <= $2)
        """
    let id: [UInt8]
    let time: Date

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 2)
        binds.append(id.bytea)
        binds.append(time)
        return binds
    }
}

/// One row when a credential with the id is stored.
struct CredentialExists: StoreStatement {
    static let sql = "SELECT 1 FROM credentials WHERE id = $1"
    let id: [UInt8]

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(id.bytea)
        return binds
    }
}

/// The name keys of a user's live credentials at `time`: the active ones and the reservations not expired.
struct LiveNameKeys: StoreStatement {
    static let sql = """
        SELECT name_key FROM credentials
        WHERE user_id = $1 AND (status = 'active' OR (status = 'reserved' AND reserved_until > $2))
        """
    let userID: String
    let time: Date

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 2)
        binds.append(userID)
        binds.append(time)
        return binds
    }
}

/// The `INSERT` of a new credential.
struct InsertCredential: StoreStatement {
    static let sql = """
        INSERT INTO credentials (\(Columns.list(Columns.credential)))
        VALUES (
            $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
            $17::timestamptz, $18::text, $19, $20::timestamptz, $21::timestamptz, $22::text, $23
        )
        """
    let credential: CredentialRecordRow

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 23)
        binds.append(credential.id.bytea)
        binds.append(credential.userID)
        binds.append(credential.publicKey.bytea)
        binds.append(credential.algorithm)
        binds.append(Int64(credential.signCount))
        binds.append(credential.aaguid)
        binds.append(credential.attestationFormat)
        binds.append(credential.attestationType)
        binds.append(credential.attestationTrusted)
        binds.append(credential.transports)
        binds.append(credential.backupEligible)
        binds.append(credential.backupState)
        binds.append(credential.userVerified)
        binds.append(credential.name)
        binds.append(credential.nameKey)
        binds.append(credential.status.rawValue)
        binds.append(credential.reservedUntil)
        binds.append(credential.flowID)
        binds.append(credential.createdAt)
        binds.append(credential.lastUsedAt)
        binds.append(credential.revokedAt)
        binds.append(credential.workflowRunID)
        binds.append(credential.consoleEnrolled)
        return binds
    }
}
