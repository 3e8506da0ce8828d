/// Whether a store operation only reads (for engines that run reads and writes differently).
enum Access: Sendable {
    case read
    case write
}

/// One SQLite connection with its own thread (or serial queue): each store operation is ONE trip to it, which
/// runs all the operation's statements, and its transaction, from statements prepared once.
protocol Engine: Sendable {
    associatedtype Session: SQLSession
    /// Runs `body` on the connection's thread and returns its result.
    func run<T: Sendable>(_ access: Access, _ body: @Sendable (Session) throws -> T) async throws -> T
    func close() async throws
}

/// The sign-in's store operations on an engine: one `run` each.
struct EngineStore<E: Engine>: SignInStore {
    let engine: E

    func userWithCredentials(userID: String) async throws -> (UserRow, [CredentialRow])? {
        try await engine.run(.read) { try StoreOperations.userWithCredentials($0, userID: userID) }
    }

    func createFlow(_ flow: FlowRow) async throws {
        try await engine.run(.write) { try StoreOperations.createFlow($0, flow) }
    }

    func appendAuditEvent(_ event: AuditEventRow) async throws -> Int64 {
        try await engine.run(.write) { try StoreOperations.appendAuditEvent($0, event) }
    }

    func flow(id: String) async throws -> FlowRow? {
        try await engine.run(.read) { try StoreOperations.flow($0, id: id) }
    }

    func credentials(userID: String) async throws -> [CredentialRow] {
        try await engine.run(.read) { try StoreOperations.credentials($0, userID: userID) }
    }

    func issueChallenge(
        flowID: String,
        expectedStatus: String,
        challengeHash: [UInt8],
        expiresAt: Double,
        payload: [UInt8],
        at time: Double
    ) async throws -> FlowRow? {
        try await engine.run(.write) {
            try StoreOperations.issueChallenge(
                $0,
                flowID: flowID,
                expectedStatus: expectedStatus,
                challengeHash: challengeHash,
                expiresAt: expiresAt,
                payload: payload,
                at: time
            )
        }
    }

    func consumeChallenge(flowID: String, challengeHash: [UInt8], at time: Double) async throws -> FlowRow? {
        try await engine.run(.write) {
            try StoreOperations.consumeChallenge($0, flowID: flowID, challengeHash: challengeHash, at: time)
        }
    }

    func credentialWithOwner(id: [UInt8]) async throws -> (CredentialRow, UserRow)? {
        try await engine.run(.read) { try StoreOperations.credentialWithOwner($0, id: id) }
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
        try await engine.run(.write) {
            try StoreOperations.recordAuthentication(
                $0,
                credentialID: credentialID,
                expectedSignCount: expectedSignCount,
                signCount: signCount,
                flowID: flowID,
                resultTokenHash: resultTokenHash,
                resultExpiresAt: resultExpiresAt,
                at: time
            )
        }
    }

    func redeemResult(flowID: String, resultTokenHash: [UInt8], at time: Double) async throws -> FlowRow? {
        try await engine.run(.write) {
            try StoreOperations.redeemResult($0, flowID: flowID, resultTokenHash: resultTokenHash, at: time)
        }
    }

    func credential(id: [UInt8]) async throws -> CredentialRow? {
        try await engine.run(.read) { try StoreOperations.credential($0, id: id) }
    }

    func createAndSeed(users: Int) async throws {
        try await engine.run(.write) { db in
            try db.immediateTransaction {
                for statement in SQL.schema + SQL.seed(users: users) { try db.execute(statement, []) }
            }
        }
    }

    func totals() async throws -> [Int64] {
        try await engine.run(.read) { db in
            try db.first(SQL.totals, []) { row in try (0..<3).map { try row.required($0, row.integer) } } ?? []
        }
    }

    func libraryDescription() async throws -> String {
        try await engine.run(.read) { db in try db.first(SQL.library, []) { try $0.required(0, $0.text) } ?? "" }
    }

    func close() async throws { try await engine.close() }
}

extension SignInStore {
    /// Checks that the database holds what `ceremonies` sign-ins leave: as many redeemed flows and counted uses,
    /// three times as many audit events.
    func verify(ceremonies: Int) async throws {
        let expected = [ceremonies, ceremonies, 3 * ceremonies].map { Int64($0) }
        let found = try await totals()
        guard found == expected else { throw CeremonyError(step: "verify: expected \(expected), found \(found)") }
    }
}
