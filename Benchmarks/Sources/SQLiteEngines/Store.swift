/// A value bound to a statement's parameter.
enum SQLValue: Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    static func blob(_ value: [UInt8]?) -> SQLValue { value.map { .blob($0) } ?? .null }
    static func real(_ value: Double?) -> SQLValue { value.map { .real($0) } ?? .null }
}

/// The current row of a statement, read by column index; a value of another storage class than asked throws.
protocol ColumnReader {
    func text(_ index: Int32) throws -> String?
    func blob(_ index: Int32) throws -> [UInt8]?
    func integer(_ index: Int32) throws -> Int64?
    func real(_ index: Int32) throws -> Double?
}

struct StoredValueError: Error, CustomStringConvertible {
    let column: Int32
    var description: String { "column \(column) holds null or a value of another storage class" }
}

extension ColumnReader {
    func required<T>(_ index: Int32, _ read: (Int32) throws -> T?) throws -> T {
        guard let value = try read(index) else { throw StoredValueError(column: index) }
        return value
    }
}

/// One connection's statements, used by one store operation on the connection's own thread.
protocol SQLSession: SendableMetatype {
    associatedtype Row: ColumnReader
    /// Runs a statement to its end.
    func execute(_ sql: String, _ arguments: [SQLValue]) throws
    /// The statement's rows, decoded.
    func all<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (Row) throws -> T) throws -> [T]
    /// The statement's first row, decoded.
    func first<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (Row) throws -> T) throws -> T?
    /// Runs `body` in a `BEGIN IMMEDIATE` transaction, rolled back if it throws.
    func immediateTransaction<T>(_ body: () throws -> T) throws -> T
}

// MARK: - Records, decoded in full as the adapter does

struct UserRow: Sendable {
    var id: String
    var handle: [UInt8]
    var name: String
    var displayName: String
    var createdAt: Double

    init(_ row: some ColumnReader) throws {
        id = try row.required(0, row.text)
        handle = try row.required(1, row.blob)
        name = try row.required(2, row.text)
        displayName = try row.required(3, row.text)
        createdAt = try row.required(4, row.real)
    }
}

struct CredentialRow: Sendable {
    var id: [UInt8]
    var userID: String
    var publicKey: [UInt8]
    var algorithm: Int64
    var signCount: Int64
    var aaguid: String
    var attestationFormat: String
    var attestationType: String
    var attestationTrusted: Int64
    var transports: String
    var backupEligible: Int64
    var backupState: Int64
    var userVerified: Int64
    var name: String
    var nameKey: String
    var status: String
    var reservedUntil: Double?
    var flowID: String?
    var createdAt: Double
    var lastUsedAt: Double?
    var revokedAt: Double?
    var workflowRunID: String?

    init(_ row: some ColumnReader) throws {
        id = try row.required(0, row.blob)
        userID = try row.required(1, row.text)
        publicKey = try row.required(2, row.blob)
        algorithm = try row.required(3, row.integer)
        signCount = try row.required(4, row.integer)
        aaguid = try row.required(5, row.text)
        attestationFormat = try row.required(6, row.text)
        attestationType = try row.required(7, row.text)
        attestationTrusted = try row.required(8, row.integer)
        transports = try row.required(9, row.text)
        backupEligible = try row.required(10, row.integer)
        backupState = try row.required(11, row.integer)
        userVerified = try row.required(12, row.integer)
        name = try row.required(13, row.text)
        nameKey = try row.required(14, row.text)
        status = try row.required(15, row.text)
        reservedUntil = try row.real(16)
        flowID = try row.text(17)
        createdAt = try row.required(18, row.real)
        lastUsedAt = try row.real(19)
        revokedAt = try row.real(20)
        workflowRunID = try row.text(21)
    }
}

struct FlowRow: Sendable {
    var id: String
    var kind: String
    var status: String
    var userID: String?
    var clientTokenHash: [UInt8]
    var challengeHash: [UInt8]?
    var challengeExpiresAt: Double?
    var resultTokenHash: [UInt8]?
    var resultExpiresAt: Double?
    var expiresAt: Double
    var createdAt: Double
    var updatedAt: Double
    var payload: [UInt8]

    init(
        id: String,
        kind: String,
        status: String,
        userID: String?,
        clientTokenHash: [UInt8],
        expiresAt: Double,
        createdAt: Double,
        payload: [UInt8]
    ) {
        self.id = id
        self.kind = kind
        self.status = status
        self.userID = userID
        self.clientTokenHash = clientTokenHash
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.updatedAt = createdAt
        self.payload = payload
    }

    init(_ row: some ColumnReader) throws {
        id = try row.required(0, row.text)
        kind = try row.required(1, row.text)
        status = try row.required(2, row.text)
        userID = try row.text(3)
        clientTokenHash = try row.required(4, row.blob)
        challengeHash = try row.blob(5)
        challengeExpiresAt = try row.real(6)
        resultTokenHash = try row.blob(7)
        resultExpiresAt = try row.real(8)
        expiresAt = try row.required(9, row.real)
        createdAt = try row.required(10, row.real)
        updatedAt = try row.required(11, row.real)
        payload = try row.required(12, row.blob)
    }

    var arguments: [SQLValue] {
        [
            .text(id), .text(kind), .text(status), .text(userID), .blob(clientTokenHash), .blob(challengeHash),
            .real(challengeExpiresAt), .blob(resultTokenHash), .real(resultExpiresAt), .real(expiresAt),
            .real(createdAt), .real(updatedAt), .blob(payload),
        ]
    }
}

struct AuditEventRow: Sendable {
    var time: Double
    var actor: String
    var action: String
    var userID: String?
    var subject: String?
    var requestID: String?
    var details: String
}

// MARK: - The store operations of a sign-in, each run whole on the connection's thread

/// The sign-in's store operations, with the statements and transactions of the SQLite adapter (its combined
/// operations where it has them).
enum StoreOperations {
    static func userWithCredentials(_ db: some SQLSession, userID: String) throws -> (UserRow, [CredentialRow])? {
        guard let user = try db.first(SQL.userByID, [.text(userID)], UserRow.init) else { return nil }
        return (user, try credentials(db, userID: userID))
    }

    static func credentials(_ db: some SQLSession, userID: String) throws -> [CredentialRow] {
        try db.all(SQL.credentialsByUser, [.text(userID)], CredentialRow.init)
    }

    static func credential(_ db: some SQLSession, id: [UInt8]) throws -> CredentialRow? {
        try db.first(SQL.credentialByID, [.blob(id)], CredentialRow.init)
    }

    static func credentialWithOwner(_ db: some SQLSession, id: [UInt8]) throws -> (CredentialRow, UserRow)? {
        guard let credential = try credential(db, id: id),
            let owner = try db.first(SQL.userByID, [.text(credential.userID)], UserRow.init)
        else { return nil }
        return (credential, owner)
    }

    static func createFlow(_ db: some SQLSession, _ flow: FlowRow) throws {
        try db.execute(SQL.insertFlow, flow.arguments)
    }

    static func flow(_ db: some SQLSession, id: String) throws -> FlowRow? {
        try db.first(SQL.flowByID, [.text(id)], FlowRow.init)
    }

    /// Issues a challenge: one conditional UPDATE … RETURNING.
    static func issueChallenge(
        _ db: some SQLSession,
        flowID: String,
        expectedStatus: String,
        challengeHash: [UInt8],
        expiresAt: Double,
        payload: [UInt8],
        at time: Double
    ) throws -> FlowRow? {
        let arguments: [SQLValue] = [
            .text("options_issued"), .blob(challengeHash), .integer(0), .real(expiresAt), .null, .null,
            .blob(payload), .real(time), .text(flowID), .text(expectedStatus),
        ]
        return try db.first(SQL.updateFlow, arguments, FlowRow.init)
    }

    static func consumeChallenge(
        _ db: some SQLSession,
        flowID: String,
        challengeHash: [UInt8],
        at time: Double
    ) throws -> FlowRow? {
        try db.immediateTransaction {
            guard var flow = try flow(db, id: flowID), flow.challengeHash == challengeHash,
                let expiry = flow.challengeExpiresAt, expiry > time
            else { return nil }
            let consumed = flow
            flow.status = "verifying"
            flow.challengeHash = nil
            flow.challengeExpiresAt = nil
            flow.updatedAt = time
            try write(db, flow)
            return consumed
        }
    }

    /// Records the credential's use (compare-and-set on its counter) and completes the flow, in one transaction.
    static func recordAuthentication(
        _ db: some SQLSession,
        credentialID: [UInt8],
        expectedSignCount: Int64,
        signCount: Int64,
        flowID: String,
        resultTokenHash: [UInt8],
        resultExpiresAt: Double,
        at time: Double
    ) throws -> (CredentialRow, FlowRow)? {
        try db.immediateTransaction {
            guard var used = try credential(db, id: credentialID), used.status == "active",
                used.signCount == expectedSignCount
            else { return nil }
            guard var flow = try flow(db, id: flowID), flow.status == "verifying", flow.expiresAt > time else {
                return nil
            }
            used.signCount = signCount
            used.lastUsedAt = time
            try db.execute(
                SQL.recordCredentialUse,
                [.integer(signCount), .integer(used.backupState), .real(time), .blob(credentialID)]
            )
            flow.status = "completed"
            flow.resultTokenHash = resultTokenHash
            flow.resultExpiresAt = resultExpiresAt
            flow.updatedAt = time
            try write(db, flow)
            return (used, flow)
        }
    }

    static func redeemResult(
        _ db: some SQLSession,
        flowID: String,
        resultTokenHash: [UInt8],
        at time: Double
    ) throws -> FlowRow? {
        try db.immediateTransaction {
            guard var flow = try flow(db, id: flowID), flow.status == "completed",
                flow.resultTokenHash == resultTokenHash, let expiry = flow.resultExpiresAt, expiry > time
            else { return nil }
            let redeemed = flow
            flow.status = "redeemed"
            flow.updatedAt = time
            try write(db, flow)
            return redeemed
        }
    }

    static func appendAuditEvent(_ db: some SQLSession, _ event: AuditEventRow) throws -> Int64 {
        let arguments: [SQLValue] = [
            .real(event.time), .text(event.actor), .text(event.action), .text(event.userID), .text(event.subject),
            .text(event.requestID), .text(event.details),
        ]
        guard let sequence = try db.first(SQL.insertAuditEvent, arguments, { try $0.required(0, $0.integer) }) else {
            throw StoredValueError(column: 0)
        }
        return sequence
    }

    /// Stores a flow's mutable columns.
    static func write(_ db: some SQLSession, _ flow: FlowRow) throws {
        try db.execute(
            SQL.writeFlow,
            [
                .text(flow.status), .blob(flow.challengeHash), .real(flow.challengeExpiresAt),
                .blob(flow.resultTokenHash), .real(flow.resultExpiresAt), .blob(flow.payload), .real(flow.updatedAt),
                .text(flow.id),
            ]
        )
    }
}
