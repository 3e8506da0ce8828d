public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore {
    public func userWithCredentials(id: String) async throws(StoreError) -> UserCredentials? {
        let rows = try await rows(UserWithCredentials(id: id), doing: "read the user and their credentials")
        guard let first = rows.first else { return nil }
        let user = try UserRecord(first, prefix: UserWithCredentials.userPrefix)
        var credentials: [CredentialRecordRow] = []
        for row in rows {
            // A user without credentials is one row whose credential columns are null.
            guard try RowReader(row, record: "credential").optionalBytes("id") != nil else { continue }
            credentials.append(try CredentialRecordRow(row))
        }
        return UserCredentials(user: user, credentials: credentials)
    }

    public func credentialWithOwner(id: [UInt8]) async throws(StoreError) -> CredentialOwner? {
        guard
            let row = try await rows(CredentialWithOwner(id: id), doing: "read the credential and its owner").first
        else { return nil }
        return CredentialOwner(
            credential: try CredentialRecordRow(row),
            owner: try UserRecord(row, prefix: CredentialWithOwner.ownerPrefix)
        )
    }

    public func recordAuthentication(
        _ use: CredentialUse,
        flowID: String,
        expectedStatuses: Set<FlowStatus>,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) -> AuthenticationRecording {
        let statement = RecordAuthentication(
            use: use,
            flow: UpdateFlow(id: flowID, update: flowUpdate, at: time, expectedStatuses: expectedStatuses)
        )
        guard let row = try await rows(statement, doing: "record the sign-in").first else {
            return .credentialNotRecorded(current: nil)
        }
        let credential = try CredentialRecordRow(row)
        guard try RowReader(row, record: "flow", prefix: RecordAuthentication.flowPrefix)("id", as: String?.self) != nil
        else {
            let applies = credential.status == .active && credential.signCount == use.expectedSignCount
            return applies ? .flowNotUpdated : .credentialNotRecorded(current: credential)
        }
        return .recorded(credential: credential, flow: try FlowRecord(row, prefix: RecordAuthentication.flowPrefix))
    }
}

/// The user and their credentials that are not revoked, one row each, ordered as ``ListCredentials`` orders them;
/// one row with null credential columns for a user without any, none for an unknown user.
struct UserWithCredentials: StoreStatement {
    /// What the user's columns are prefixed with, apart from the credentials' columns of the same names.
    static let userPrefix = "owner_"
    static let sql = """
        SELECT \(Columns.list(Columns.user, of: "u", as: userPrefix)), \(Columns.list(Columns.credential, of: "c"))
        FROM users AS u LEFT JOIN credentials AS c ON c.user_id = u.id AND c.status <> 'revoked'
        WHERE u.id = $1
        ORDER BY c.created_at, c.id
        """
    let id: String

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(id)
        return binds
    }
}

/// The credential with its owner's columns beside its own; no row for an unknown credential.
struct CredentialWithOwner: StoreStatement {
    static let ownerPrefix = "owner_"
    static let sql = """
        SELECT \(Columns.list(Columns.credential, of: "c")), \(Columns.list(Columns.user, of: "u", as: ownerPrefix))
        FROM credentials AS c JOIN users AS u ON u.id = c.user_id
        WHERE c.id = $1
        """
    let id: [UInt8]

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 1)
        binds.append(id.bytea)
        return binds
    }
}

/// A verified sign-in in one statement: the credential's use, a compare-and-set on its status and counter, and the
/// flow's update (``UpdateFlow``, whose values are `$1` to `$10`), both or neither.
///
/// `credential` locks the credential's row first, as every operation that locks both takes them, and reads it as
/// last committed: a call that waited for a racing use reads the counter that one wrote. `flow` locks the flow
/// only when the use applies to that row, and only when the flow may be updated; the two updates then run only
/// when both hold, on rows this statement has locked, so they cannot fail apart. The row returned is the
/// credential (as written, or as it stands) with the flow as updated in the columns prefixed ``flowPrefix``, null
/// when nothing was written; no row when there is no such credential.
struct RecordAuthentication: StoreStatement {
    static let flowPrefix = "updated_"
    static let sql = """
        WITH credential AS MATERIALIZED (
            SELECT \(Columns.list(Columns.credential)) FROM credentials WHERE id = $11 FOR UPDATE
        ),
        flow AS MATERIALIZED (
            SELECT id FROM flows
            WHERE \(UpdateFlow.condition)
                AND EXISTS (SELECT 1 FROM credential WHERE status = 'active' AND sign_count = $12)
            FOR UPDATE
        ),
        used AS (
            UPDATE credentials SET sign_count = $13, backup_state = $14, last_used_at = $9::timestamptz
            WHERE id = $11 AND status = 'active' AND sign_count = $12 AND EXISTS (SELECT 1 FROM flow)
            RETURNING \(Columns.list(Columns.credential))
        ),
        updated AS (
            UPDATE flows SET \(UpdateFlow.assignments)
            WHERE id = $1 AND EXISTS (SELECT 1 FROM used)
            RETURNING \(Columns.list(Columns.flow))
        )
        SELECT \(Columns.list(Columns.credential, of: "c")), \(Columns.list(Columns.flow, of: "updated", as: flowPrefix))
        FROM (SELECT * FROM used UNION ALL SELECT * FROM credential WHERE NOT EXISTS (SELECT 1 FROM used)) AS c
        LEFT JOIN updated ON true
        """
    let use: CredentialUse
    let flow: UpdateFlow

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: 14)
        flow.append(to: &binds)
        binds.append(use.credentialID.bytea)
        binds.append(Int64(use.expectedSignCount))
        binds.append(Int64(use.signCount))
        binds.append(use.backupState)
        return binds
    }
}
