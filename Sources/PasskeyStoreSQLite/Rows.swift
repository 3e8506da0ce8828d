import Foundation
import PasskeyStorage

/// Values bound to statements, in the schema's representation (see ``Migrations``).
enum Bind {
    static func text(_ value: String) -> SQLValue { .text(value) }
    static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    static func bytes(_ value: [UInt8]) -> SQLValue { .blob(value) }
    static func bytes(_ value: [UInt8]?) -> SQLValue { value.map(bytes) ?? .null }
    static func integer(_ value: Int) -> SQLValue { .integer(Int64(value)) }
    static func integer(_ value: Int64) -> SQLValue { .integer(value) }
    static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
    /// Seconds since 1970 as a REAL: exact for whole seconds, other times to well within a microsecond.
    static func date(_ value: Date) -> SQLValue { .real(value.timeIntervalSince1970) }
    static func date(_ value: Date?) -> SQLValue { value.map(date) ?? .null }

    static func json(_ value: some Encodable) throws(StoreError) -> SQLValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return .text(String(decoding: try encoder.encode(value), as: UTF8.self))
        } catch {
            throw StoreError(.unavailable, "Could not encode a value for the database: \(error).")
        }
    }
}

/// Reads one row's columns, refusing with `.corrupt` any value the schema does not allow, so that no stored
/// data can crash the process.
struct RowReader {
    let row: Row
    let table: String

    private func value(_ column: String) throws(StoreError) -> SQLValue {
        guard let value = row.column(column) else { throw corrupt(column, "is missing") }
        return value
    }

    private func corrupt(_ column: String, _ problem: String) -> StoreError {
        StoreError(.corrupt, "A stored \(table) row is invalid: its column \(column) \(problem).")
    }

    func optionalText(_ column: String) throws(StoreError) -> String? {
        switch try value(column) {
        case .null: return nil
        case .text(let text): return text
        case let other: throw corrupt(column, "holds \(other.kind) instead of text")
        }
    }

    func text(_ column: String) throws(StoreError) -> String {
        guard let text = try optionalText(column) else { throw corrupt(column, "is null") }
        return text
    }

    func optionalBytes(_ column: String) throws(StoreError) -> [UInt8]? {
        switch try value(column) {
        case .null: return nil
        case .blob(let bytes): return bytes
        case let other: throw corrupt(column, "holds \(other.kind) instead of bytes")
        }
    }

    func bytes(_ column: String) throws(StoreError) -> [UInt8] {
        guard let bytes = try optionalBytes(column) else { throw corrupt(column, "is null") }
        return bytes
    }

    func int64(_ column: String) throws(StoreError) -> Int64 {
        switch try value(column) {
        case .integer(let integer): return Int64(integer)
        case let other: throw corrupt(column, "holds \(other.kind) instead of an integer")
        }
    }

    func int(_ column: String) throws(StoreError) -> Int {
        guard let value = Int(exactly: try int64(column)) else { throw corrupt(column, "is out of range") }
        return value
    }

    func uint32(_ column: String) throws(StoreError) -> UInt32 {
        guard let value = UInt32(exactly: try int64(column)) else { throw corrupt(column, "is out of range") }
        return value
    }

    func bool(_ column: String) throws(StoreError) -> Bool {
        switch try int64(column) {
        case 0: return false
        case 1: return true
        default: throw corrupt(column, "is neither 0 nor 1")
        }
    }

    func optionalDate(_ column: String) throws(StoreError) -> Date? {
        let seconds: Double
        switch try value(column) {
        case .null: return nil
        case .real(let value): seconds = value
        case .integer(let value): seconds = Double(value)
        case let other: throw corrupt(column, "holds \(other.kind) instead of a time")
        }
        guard seconds.isFinite else { throw corrupt(column, "is not a finite time") }
        return Date(timeIntervalSince1970: seconds)
    }

    func date(_ column: String) throws(StoreError) -> Date {
        guard let date = try optionalDate(column) else { throw corrupt(column, "is null") }
        return date
    }

    func json<T: Decodable>(_ type: T.Type, _ column: String) throws(StoreError) -> T {
        let text = try text(column)
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw corrupt(column, "is not the expected JSON")
        }
    }
}

// MARK: - Records

enum UserRows {
    static let columns = "id, handle, name, display_name, created_at"

    static func decode(_ row: Row) throws(StoreError) -> UserRecord {
        let reader = RowReader(row: row, table: "users")
        return UserRecord(
            id: try reader.text("id"),
            handle: try reader.bytes("handle"),
            name: try reader.text("name"),
            displayName: try reader.text("display_name"),
            createdAt: try reader.date("created_at")
        )
    }

    /// A user row with its count of active credentials in the column `active_credentials`.
    static func decodeSummary(_ row: Row) throws(StoreError) -> UserSummary {
        UserSummary(
            user: try decode(row),
            activeCredentials: try RowReader(row: row, table: "users").int("active_credentials")
        )
    }

    static func binds(_ user: UserRecord) -> [SQLValue] {
        [
            Bind.text(user.id), Bind.bytes(user.handle), Bind.text(user.name), Bind.text(user.displayName),
            Bind.date(user.createdAt),
        ]
    }
}

enum CredentialRows {
    static let columns = """
        id, user_id, public_key, algorithm, sign_count, aaguid, attestation_format, attestation_type, \
        attestation_trusted, transports, backup_eligible, backup_state, user_verified, name, name_key, status, \
        reserved_until, flow_id, created_at, last_used_at, revoked_at, workflow_run_id, console_enrolled
        """
    static let placeholders = Array(repeating: "?", count: 23).joined(separator: ", ")

    static func decode(_ row: Row) throws(StoreError) -> CredentialRecordRow {
        let reader = RowReader(row: row, table: "credentials")
        let statusText = try reader.text("status")
        guard let status = CredentialRecordRow.Status(rawValue: statusText) else {
            throw StoreError(.corrupt, "A stored credentials row is invalid: its status '\(statusText)' is unknown.")
        }
        return CredentialRecordRow(
            id: try reader.bytes("id"),
            userID: try reader.text("user_id"),
            publicKey: try reader.bytes("public_key"),
            algorithm: try reader.int("algorithm"),
            signCount: try reader.uint32("sign_count"),
            aaguid: try reader.text("aaguid"),
            attestationFormat: try reader.text("attestation_format"),
            attestationType: try reader.text("attestation_type"),
            attestationTrusted: try reader.bool("attestation_trusted"),
            transports: try reader.json([String].self, "transports"),
            backupEligible: try reader.bool("backup_eligible"),
            backupState: try reader.bool("backup_state"),
            userVerified: try reader.bool("user_verified"),
            name: try reader.text("name"),
            nameKey: try reader.text("name_key"),
            status: status,
            reservedUntil: try reader.optionalDate("reserved_until"),
            flowID: try reader.optionalText("flow_id"),
            createdAt: try reader.date("created_at"),
            lastUsedAt: try reader.optionalDate("last_used_at"),
            revokedAt: try reader.optionalDate("revoked_at"),
            workflowRunID: try reader.optionalText("workflow_run_id"),
            consoleEnrolled: try reader.bool("console_enrolled")
        )
    }

    static func binds(_ credential: CredentialRecordRow) throws(StoreError) -> [SQLValue] {
        [
            Bind.bytes(credential.id), Bind.text(credential.userID), Bind.bytes(credential.publicKey),
            Bind.integer(credential.algorithm), Bind.integer(Int64(credential.signCount)), Bind.text(credential.aaguid),
            Bind.text(credential.attestationFormat), Bind.text(credential.attestationType),
            Bind.bool(credential.attestationTrusted), try Bind.json(credential.transports),
            Bind.bool(credential.backupEligible), Bind.bool(credential.backupState), Bind.bool(credential.userVerified),
            Bind.text(credential.name), Bind.text(credential.nameKey), Bind.text(credential.status.rawValue),
            Bind.date(credential.reservedUntil), Bind.text(credential.flowID), Bind.date(credential.createdAt),
            Bind.date(credential.lastUsedAt), Bind.date(credential.revokedAt), Bind.text(credential.workflowRunID),
            Bind.bool(credential.consoleEnrolled),
        ]
    }
}

enum FlowRows {
    static let columns = """
        id, kind, status, user_id, client_token_hash, challenge_hash, challenge_expires_at, result_token_hash, \
        result_expires_at, expires_at, created_at, updated_at, payload
        """

    static func decode(_ row: Row) throws(StoreError) -> FlowRecord {
        let reader = RowReader(row: row, table: "flows")
        return FlowRecord(
            id: try reader.text("id"),
            kind: FlowKind(rawValue: try reader.text("kind")),
            status: FlowStatus(rawValue: try reader.text("status")),
            userID: try reader.optionalText("user_id"),
            clientTokenHash: try reader.bytes("client_token_hash"),
            challengeHash: try reader.optionalBytes("challenge_hash"),
            challengeExpiresAt: try reader.optionalDate("challenge_expires_at"),
            resultTokenHash: try reader.optionalBytes("result_token_hash"),
            resultExpiresAt: try reader.optionalDate("result_expires_at"),
            expiresAt: try reader.date("expires_at"),
            createdAt: try reader.date("created_at"),
            updatedAt: try reader.date("updated_at"),
            payload: try reader.bytes("payload")
        )
    }

    static func binds(_ flow: FlowRecord) -> [SQLValue] {
        [
            Bind.text(flow.id), Bind.text(flow.kind.rawValue), Bind.text(flow.status.rawValue), Bind.text(flow.userID),
            Bind.bytes(flow.clientTokenHash), Bind.bytes(flow.challengeHash), Bind.date(flow.challengeExpiresAt),
            Bind.bytes(flow.resultTokenHash), Bind.date(flow.resultExpiresAt), Bind.date(flow.expiresAt),
            Bind.date(flow.createdAt), Bind.date(flow.updatedAt), Bind.bytes(flow.payload),
        ]
    }
}

enum AuditRows {
    static let columns = "sequence, time, actor, action, user_id, subject, request_id, details, previous_hash, hash"

    static func decode(_ row: Row) throws(StoreError) -> AuditEvent {
        let reader = RowReader(row: row, table: "audit_events")
        return AuditEvent(
            sequence: try reader.int64("sequence"),
            // The whole milliseconds it was appended with (and hashed), as the same `Date` value.
            time: AuditChain.storedTime(try reader.date("time")),
            actor: try reader.text("actor"),
            action: try reader.text("action"),
            userID: try reader.optionalText("user_id"),
            subject: try reader.optionalText("subject"),
            requestID: try reader.optionalText("request_id"),
            details: try reader.json([String: String].self, "details"),
            previousHash: try reader.optionalBytes("previous_hash"),
            hash: try reader.optionalBytes("hash")
        )
    }

    static func decodeCheckpoint(_ row: Row) throws(StoreError) -> AuditCheckpoint {
        let reader = RowReader(row: row, table: "audit_checkpoints")
        return AuditCheckpoint(
            sequence: try reader.int64("sequence"),
            hash: try reader.bytes("hash"),
            time: AuditChain.storedTime(try reader.date("time")),
            publicKey: try reader.bytes("public_key"),
            signature: try reader.bytes("signature")
        )
    }
}
