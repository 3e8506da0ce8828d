import NIOCore
import NIOPosix
import SQLiteNIO

/// The baseline: sqlite-nio as the store's adapter uses it today. An operation leases the connection (an actor,
/// waiters in line), runs in a task of its own, and sends each statement to the connection's thread pool with
/// `SQLiteConnection.query`, which prepares it again each time.
actor NIOBaselineStore: SignInStore {
    private let connection: SQLiteConnection
    private let threadPool: NIOThreadPool
    private var isLent = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    private init(connection: SQLiteConnection, threadPool: NIOThreadPool) {
        self.connection = connection
        self.threadPool = threadPool
    }

    static func open(path: String) async throws -> NIOBaselineStore {
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path),
            threadPool: threadPool,
            on: MultiThreadedEventLoopGroup.singleton.any()
        )
        for pragma in [
            "PRAGMA busy_timeout = 5000", "PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL",
            "PRAGMA synchronous = NORMAL",
        ] {
            _ = try await connection.query(pragma, [])
        }
        return NIOBaselineStore(connection: connection, threadPool: threadPool)
    }

    /// Runs `body` with the connection to itself.
    private func withSession<T: Sendable>(_ body: @escaping @Sendable (NIOSession) async throws -> T) async throws -> T
    {
        if isLent {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            isLent = true
        }
        defer {
            if waiting.isEmpty { isLent = false } else { waiting.removeFirst().resume() }
        }
        let session = NIOSession(connection: connection)
        return try await Task { try await body(session) }.value
    }

    private func withTransaction<T: Sendable>(
        _ body: @escaping @Sendable (NIOSession) async throws -> T
    ) async throws -> T {
        try await withSession { db in
            try await db.execute("BEGIN IMMEDIATE", [])
            do {
                let result = try await body(db)
                try await db.execute("COMMIT", [])
                return result
            } catch {
                try? await db.execute("ROLLBACK", [])
                throw error
            }
        }
    }

    func userWithCredentials(userID: String) async throws -> (UserRow, [CredentialRow])? {
        // The adapter's combined read is two operations today.
        guard let user = try await withSession({ try await $0.first(SQL.userByID, [.text(userID)], UserRow.init) })
        else { return nil }
        return (user, try await credentials(userID: userID))
    }

    func createFlow(_ flow: FlowRow) async throws {
        try await withSession { try await $0.execute(SQL.insertFlow, flow.arguments) }
    }

    func appendAuditEvent(_ event: AuditEventRow) async throws -> Int64 {
        let arguments: [SQLValue] = [
            .real(event.time), .text(event.actor), .text(event.action), .text(event.userID), .text(event.subject),
            .text(event.requestID), .text(event.details),
        ]
        return try await withSession { db in
            guard let sequence = try await db.first(SQL.insertAuditEvent, arguments, { try $0.required(0, $0.integer) })
            else { throw StoredValueError(column: 0) }
            return sequence
        }
    }

    func flow(id: String) async throws -> FlowRow? {
        try await withSession { try await $0.first(SQL.flowByID, [.text(id)], FlowRow.init) }
    }

    func credentials(userID: String) async throws -> [CredentialRow] {
        try await withSession { try await $0.all(SQL.credentialsByUser, [.text(userID)], CredentialRow.init) }
    }

    func issueChallenge(
        flowID: String,
        expectedStatus: String,
        challengeHash: [UInt8],
        expiresAt: Double,
        payload: [UInt8],
        at time: Double
    ) async throws -> FlowRow? {
        let arguments: [SQLValue] = [
            .text("options_issued"), .blob(challengeHash), .integer(0), .real(expiresAt), .null, .null,
            .blob(payload), .real(time), .text(flowID), .text(expectedStatus),
        ]
        return try await withSession { try await $0.first(SQL.updateFlow, arguments, FlowRow.init) }
    }

    func consumeChallenge(flowID: String, challengeHash: [UInt8], at time: Double) async throws -> FlowRow? {
        try await withTransaction { db in
            guard var flow = try await db.first(SQL.flowByID, [.text(flowID)], FlowRow.init),
                flow.challengeHash == challengeHash, let expiry = flow.challengeExpiresAt, expiry > time
            else { return nil }
            let consumed = flow
            flow.status = "verifying"
            flow.challengeHash = nil
            flow.challengeExpiresAt = nil
            flow.updatedAt = time
            try await db.write(flow)
            return consumed
        }
    }

    func credentialWithOwner(id: [UInt8]) async throws -> (CredentialRow, UserRow)? {
        // Two operations today, as userWithCredentials.
        guard let credential = try await credential(id: id),
            let owner = try await withSession({
                try await $0.first(SQL.userByID, [.text(credential.userID)], UserRow.init)
            })
        else { return nil }
        return (credential, owner)
    }

    func recordAuthentication(
        credentialID: [UInt8],
        expectedSignCount: Int64,
        signCount: Int64,
        flowID: String,
        resultTokenHash: [UInt8],
        resultExpiresAt: Double,
        at time: Double
    ) async throws -> (CredentialRow, FlowRow)? {
        try await withTransaction { db in
            guard var used = try await db.first(SQL.credentialByID, [.blob(credentialID)], CredentialRow.init),
                used.status == "active", used.signCount == expectedSignCount,
                var flow = try await db.first(SQL.flowByID, [.text(flowID)], FlowRow.init),
                flow.status == "verifying", flow.expiresAt > time
            else { return nil }
            used.signCount = signCount
            used.lastUsedAt = time
            try await db.execute(
                SQL.recordCredentialUse,
                [.integer(signCount), .integer(used.backupState), .real(time), .blob(credentialID)]
            )
            flow.status = "completed"
            flow.resultTokenHash = resultTokenHash
            flow.resultExpiresAt = resultExpiresAt
            flow.updatedAt = time
            try await db.write(flow)
            return (used, flow)
        }
    }

    func redeemResult(flowID: String, resultTokenHash: [UInt8], at time: Double) async throws -> FlowRow? {
        try await withTransaction { db in
            guard var flow = try await db.first(SQL.flowByID, [.text(flowID)], FlowRow.init),
                flow.status == "completed", flow.resultTokenHash == resultTokenHash,
                let expiry = flow.resultExpiresAt, expiry > time
            else { return nil }
            let redeemed = flow
            flow.status = "redeemed"
            flow.updatedAt = time
            try await db.write(flow)
            return redeemed
        }
    }

    func credential(id: [UInt8]) async throws -> CredentialRow? {
        try await withSession { try await $0.first(SQL.credentialByID, [.blob(id)], CredentialRow.init) }
    }

    func createAndSeed(users: Int) async throws {
        _ = try await withTransaction { db in
            for statement in SQL.schema + SQL.seed(users: users) { try await db.execute(statement, []) }
        }
    }

    func totals() async throws -> [Int64] {
        try await withSession { db in
            try await db.first(SQL.totals, []) { row in try (0..<3).map { try row.required($0, row.integer) } } ?? []
        }
    }

    func libraryDescription() async throws -> String {
        try await withSession { try await $0.first(SQL.library, []) { try $0.required(0, $0.text) } ?? "" }
    }

    func close() async throws {
        try await connection.close()
        try await threadPool.shutdownGracefully()
    }
}

/// Statements sent one by one with `SQLiteConnection.query`.
struct NIOSession: Sendable {
    let connection: SQLiteConnection

    func rows(_ sql: String, _ arguments: [SQLValue]) async throws -> [SQLiteRow] {
        try await connection.query(
            sql,
            arguments.map { value in
                switch value {
                case .null: .null
                case .integer(let integer): .integer(Int(integer))
                case .real(let real): .float(real)
                case .text(let text): .text(text)
                case .blob(let bytes): .blob(ByteBuffer(bytes: bytes))
                }
            }
        )
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) async throws { _ = try await rows(sql, arguments) }

    func all<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (NIORow) throws -> T) async throws -> [T] {
        try await rows(sql, arguments).map { try decode(NIORow(columns: $0.columns)) }
    }

    func first<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (NIORow) throws -> T) async throws -> T? {
        try await rows(sql, arguments).first.map { try decode(NIORow(columns: $0.columns)) }
    }

    func write(_ flow: FlowRow) async throws {
        try await execute(
            SQL.writeFlow,
            [
                .text(flow.status), .blob(flow.challengeHash), .real(flow.challengeExpiresAt),
                .blob(flow.resultTokenHash), .real(flow.resultExpiresAt), .blob(flow.payload), .real(flow.updatedAt),
                .text(flow.id),
            ]
        )
    }
}

struct NIORow: ColumnReader {
    let columns: [SQLiteColumn]

    private func value<T>(_ index: Int32, _ match: (SQLiteData) -> T?) throws -> T? {
        let data = columns[Int(index)].data
        if case .null = data { return nil }
        guard let value = match(data) else { throw StoredValueError(column: index) }
        return value
    }

    func text(_ index: Int32) throws -> String? {
        try value(index) { if case .text(let text) = $0 { text } else { nil } }
    }

    func blob(_ index: Int32) throws -> [UInt8]? {
        try value(index) { if case .blob(let buffer) = $0 { Array(buffer.readableBytesView) } else { nil } }
    }

    func integer(_ index: Int32) throws -> Int64? {
        try value(index) { if case .integer(let integer) = $0 { Int64(integer) } else { nil } }
    }

    func real(_ index: Int32) throws -> Double? {
        try value(index) { if case .float(let real) = $0 { real } else { nil } }
    }
}
