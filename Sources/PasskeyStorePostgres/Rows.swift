import Foundation
import PasskeyStorage
import PostgresNIO

/// The columns each record is read from, in the order the queries select them.
enum Columns {
    static let user = ["id", "handle", "name", "display_name", "created_at"]
    static let credential = [
        "id", "user_id", "public_key", "algorithm", "sign_count", "aaguid", "attestation_format", "attestation_type",
        "attestation_trusted", "transports", "backup_eligible", "backup_state", "user_verified", "name", "name_key",
        "status", "reserved_until", "flow_id", "created_at", "last_used_at", "revoked_at", "workflow_run_id",
        "console_enrolled",
    ]
    static let flow = [
        "id", "kind", "status", "user_id", "client_token_hash", "challenge_hash", "challenge_expires_at",
        "result_token_hash", "result_expires_at", "expires_at", "created_at", "updated_at", "payload",
    ]
    static let auditEvent = [
        "sequence", "time", "actor", "action", "user_id", "subject", "request_id", "details::text AS details",
        "previous_hash", "hash",
    ]
    static let auditCheckpoint = ["sequence", "hash", "time", "public_key", "signature"]
    static let limitWindow = ["key_hash", "window_start", "window_end", "count"]
    static let webSession = [
        "id", "secret_hash", "kind", "user_id", "operator_name", "credential_id", "client_ip", "created_at",
        "expires_at",
    ]
    static let workflowRun = [
        "id", "purpose", "user_id", "flow_id", "status", "face_match", "vendor_reference", "created_at", "updated_at",
        "expires_at",
    ]
    static let crossPlatformSession = [
        "id", "flow_id", "handoff_token_hash", "poll_token_hash", "client_token_hash", "verification_code", "status",
        "code_failures", "created_at", "updated_at", "handoff_expires_at", "expires_at",
    ]

    /// The columns as a select list, each prefixed with `table.` when given.
    static func list(_ columns: [String], of table: String? = nil) -> String {
        columns.map { column in table.map { "\($0).\(column)" } ?? column }.joined(separator: ", ")
    }

    /// The columns of `table` as a select list, each renamed `prefix` + its name: how a row that joins two records
    /// with columns of the same name (`id`, `name`, `created_at`) keeps them apart.
    static func list(_ columns: [String], of table: String, as prefix: String) -> String {
        columns.map { "\(table).\($0) AS \(prefix)\($0)" }.joined(separator: ", ")
    }
}

/// Reads a row's columns by name. Anything it cannot read — a missing column, a null where a value belongs, a
/// value of the wrong type or out of range — is `.corrupt`, never a crash.
struct RowReader {
    let row: PostgresRandomAccessRow
    let record: String
    /// What the record's column names carry in front of them in this row (see ``Columns/list(_:of:as:)``).
    let prefix: String

    init(_ row: PostgresRow, record: String, prefix: String = "") {
        self.row = row.makeRandomAccess()
        self.record = record
        self.prefix = prefix
    }

    func corrupt(_ column: String, _ problem: String) -> StoreError {
        StoreError(.corrupt, "A stored \(record) could not be read: column '\(column)' \(problem).")
    }

    func callAsFunction<Value: PostgresDecodable>(
        _ column: String,
        as _: Value.Type = Value.self
    ) throws(StoreError) -> Value {
        let column = prefix + column
        guard row.contains(column) else { throw corrupt(column, "is missing") }
        do {
            return try row[column].decode(Value.self)
        } catch {
            throw corrupt(
                column,
                "does not hold a valid \(Value.self) (\((error as? PostgresDecodingError)?.code.description ?? "\(error)"))"
            )
        }
    }

    func bytes(_ column: String) throws(StoreError) -> [UInt8] {
        Array(try self(column, as: ByteBuffer.self).readableBytesView)
    }

    func optionalBytes(_ column: String) throws(StoreError) -> [UInt8]? {
        try self(column, as: ByteBuffer?.self).map { Array($0.readableBytesView) }
    }
}

extension UserRecord {
    init(_ row: PostgresRow, prefix: String = "") throws(StoreError) {
        let read = RowReader(row, record: "user", prefix: prefix)
        self.init(
            id: try read("id"),
            handle: try read.bytes("handle"),
            name: try read("name"),
            displayName: try read("display_name"),
            createdAt: try read("created_at")
        )
    }
}

extension UserSummary {
    /// A user row with its count of active credentials in the column `active_credentials`.
    init(_ row: PostgresRow) throws(StoreError) {
        let count = try RowReader(row, record: "user")("active_credentials", as: Int64.self)
        self.init(user: try UserRecord(row), activeCredentials: Int(count))
    }
}

extension CredentialRecordRow {
    init(_ row: PostgresRow) throws(StoreError) {
        let read = RowReader(row, record: "credential")
        let signCount: Int64 = try read("sign_count")
        guard let signCount = UInt32(exactly: signCount) else {
            throw read.corrupt("sign_count", "is \(signCount), outside 0...\(UInt32.max)")
        }
        let statusText: String = try read("status")
        guard let status = Status(rawValue: statusText) else {
            throw read.corrupt("status", "is '\(statusText)', not a credential status")
        }
        self.init(
            id: try read.bytes("id"),
            userID: try read("user_id"),
            publicKey: try read.bytes("public_key"),
            algorithm: try read("algorithm"),
            signCount: signCount,
            aaguid: try read("aaguid"),
            attestationFormat: try read("attestation_format"),
            attestationType: try read("attestation_type"),
            attestationTrusted: try read("attestation_trusted"),
            transports: try read("transports"),
            backupEligible: try read("backup_eligible"),
            backupState: try read("backup_state"),
            userVerified: try read("user_verified"),
            name: try read("name"),
            nameKey: try read("name_key"),
            status: status,
            reservedUntil: try read("reserved_until"),
            flowID: try read("flow_id"),
            createdAt: try read("created_at"),
            lastUsedAt: try read("last_used_at"),
            revokedAt: try read("revoked_at"),
            workflowRunID: try read("workflow_run_id"),
            consoleEnrolled: try read("console_enrolled")
        )
    }
}

extension FlowRecord {
    init(_ row: PostgresRow, prefix: String = "") throws(StoreError) {
        let read = RowReader(row, record: "flow", prefix: prefix)
        self.init(
            id: try read("id"),
            kind: FlowKind(rawValue: try read("kind")),
            status: FlowStatus(rawValue: try read("status")),
            userID: try read("user_id"),
            clientTokenHash: try read.bytes("client_token_hash"),
            challengeHash: try read.optionalBytes("challenge_hash"),
            challengeExpiresAt: try read("challenge_expires_at"),
            resultTokenHash: try read.optionalBytes("result_token_hash"),
            resultExpiresAt: try read("result_expires_at"),
            expiresAt: try read("expires_at"),
            createdAt: try read("created_at"),
            updatedAt: try read("updated_at"),
            payload: try read.bytes("payload")
        )
    }
}

extension AuditEvent {
    init(_ row: PostgresRow) throws(StoreError) {
        let read = RowReader(row, record: "audit event")
        let detailsText: String = try read("details")
        let details: [String: String]
        do {
            details = try JSONDecoder().decode([String: String].self, from: Data(detailsText.utf8))
        } catch {
            throw read.corrupt("details", "is not an object of strings")
        }
        self.init(
            sequence: try read("sequence"),
            // The whole milliseconds it was appended with (and hashed), as the same `Date` value.
            time: AuditChain.storedTime(try read("time")),
            actor: try read("actor"),
            action: try read("action"),
            userID: try read("user_id"),
            subject: try read("subject"),
            requestID: try read("request_id"),
            details: details,
            previousHash: try read.optionalBytes("previous_hash"),
            hash: try read.optionalBytes("hash")
        )
    }
}

extension AuditCheckpoint {
    init(_ row: PostgresRow) throws(StoreError) {
        let read = RowReader(row, record: "audit checkpoint")
        self.init(
            sequence: try read("sequence"),
            hash: try read.bytes("hash"),
            time: AuditChain.storedTime(try read("time")),
            publicKey: try read.bytes("public_key"),
            signature: try read.bytes("signature")
        )
    }
}

extension [UInt8] {
    /// The bytes as a bind parameter of type `bytea` (an array of `UInt8` alone would bind as `char[]`).
    var bytea: ByteBuffer { ByteBuffer(bytes: self) }
}
