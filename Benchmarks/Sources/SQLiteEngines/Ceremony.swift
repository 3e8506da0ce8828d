import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store operations of a sign-in, as the server calls them.
protocol SignInStore: Sendable {
    func userWithCredentials(userID: String) async throws -> (UserRow, [CredentialRow])?
    func createFlow(_ flow: FlowRow) async throws
    func appendAuditEvent(_ event: AuditEventRow) async throws -> Int64
    func flow(id: String) async throws -> FlowRow?
    func credentials(userID: String) async throws -> [CredentialRow]
    func issueChallenge(
        flowID: String,
        expectedStatus: String,
        challengeHash: [UInt8],
        expiresAt: Double,
        payload: [UInt8],
        at time: Double
    ) async throws -> FlowRow?
    func consumeChallenge(flowID: String, challengeHash: [UInt8], at time: Double) async throws -> FlowRow?
    func credentialWithOwner(id: [UInt8]) async throws -> (CredentialRow, UserRow)?
    func recordAuthentication(
        credentialID: [UInt8],
        expectedSignCount: Int64,
        signCount: Int64,
        flowID: String,
        resultTokenHash: [UInt8],
        resultExpiresAt: Double,
        at time: Double
    ) async throws -> (CredentialRow, FlowRow)?
    func redeemResult(flowID: String, resultTokenHash: [UInt8], at time: Double) async throws -> FlowRow?
    func credential(id: [UInt8]) async throws -> CredentialRow?

    /// Creates the tables and `users` users with one credential each.
    func createAndSeed(users: Int) async throws
    /// `[redeemed flows, sum of sign counts, audit events]`.
    func totals() async throws -> [Int64]
    /// The SQLite library's version, the compile options that matter here, and the connection's settings.
    func libraryDescription() async throws -> String
    func close() async throws
}

struct CeremonyError: Error, CustomStringConvertible {
    let step: String
    var description: String { "the sign-in's step '\(step)' found nothing" }
}

/// One client: signs in its own users in turn (so no two clients race for a credential).
struct Client {
    let number: Int
    let clients: Int
    let users: Int
    var ceremonies = 0
    var random: SplitMix64

    init(number: Int, clients: Int, users: Int) {
        self.number = number
        self.clients = clients
        self.users = users
        random = SplitMix64(seed: UInt64(number) &+ 0x9E37_79B9)
    }

    /// The store operations of one sign-in ceremony, in the server's order.
    mutating func signIn(_ store: some SignInStore) async throws {
        let userID = "user-" + eightDigits((number + ceremonies * clients) % users)
        let flowID = "flow-\(number)-\(ceremonies)"
        let requestID = "request-\(number)-\(ceremonies)"
        ceremonies += 1
        let now = wallClock()
        let clientToken = random.bytes(32)
        let challenge = random.bytes(32)
        let resultToken = random.bytes(32)
        let payload = Self.payload

        // Options: the user and their credentials, a new flow, its audit event.
        guard let (user, credentials) = try await store.userWithCredentials(userID: userID),
            let credential = credentials.first
        else { throw CeremonyError(step: "user with credentials") }
        let flow = FlowRow(
            id: flowID,
            kind: "authentication",
            status: "created",
            userID: user.id,
            clientTokenHash: clientToken,
            expiresAt: now + 300,
            createdAt: now,
            payload: payload
        )
        try await store.createFlow(flow)
        _ = try await store.appendAuditEvent(audit("authentication.started", user.id, flowID, requestID, at: now))
        guard try await store.flow(id: flowID) != nil else { throw CeremonyError(step: "flow") }
        _ = try await store.credentials(userID: userID)
        guard
            try await store.issueChallenge(
                flowID: flowID,
                expectedStatus: "created",
                challengeHash: challenge,
                expiresAt: now + 300,
                payload: payload,
                at: now
            ) != nil
        else { throw CeremonyError(step: "issue challenge") }

        // Verification: the flow, its challenge consumed, the credential and its owner, the use recorded and the
        // flow completed, an audit event.
        guard try await store.flow(id: flowID) != nil,
            try await store.consumeChallenge(flowID: flowID, challengeHash: challenge, at: now) != nil
        else { throw CeremonyError(step: "consume challenge") }
        guard let (used, _) = try await store.credentialWithOwner(id: credential.id),
            try await store.recordAuthentication(
                credentialID: credential.id,
                expectedSignCount: used.signCount,
                signCount: used.signCount + 1,
                flowID: flowID,
                resultTokenHash: resultToken,
                resultExpiresAt: now + 60,
                at: now
            ) != nil
        else { throw CeremonyError(step: "record authentication") }
        _ = try await store.appendAuditEvent(audit("authentication.succeeded", user.id, flowID, requestID, at: now))

        // Redemption: the result token, the credential, an audit event.
        guard try await store.redeemResult(flowID: flowID, resultTokenHash: resultToken, at: now) != nil,
            try await store.credential(id: credential.id) != nil
        else { throw CeremonyError(step: "redeem") }
        _ = try await store.appendAuditEvent(audit("session.created", user.id, flowID, requestID, at: now))
    }

    private func audit(
        _ action: String,
        _ userID: String,
        _ flowID: String,
        _ requestID: String,
        at time: Double
    ) -> AuditEventRow {
        AuditEventRow(
            time: time,
            actor: "user:" + userID,
            action: action,
            userID: userID,
            subject: "flow:" + flowID,
            requestID: requestID,
            details: #"{"flow":"\#(flowID)","method":"passkey"}"#
        )
    }

    /// A flow's JSON state, about the size the server stores.
    static let payload = Array(
        (#"{"allowCredentials":[],"rpID":"example.com","timeout":300000,"userVerification":"preferred","#
            + #""hints":[],"mediation":"optional","extensions":{},"origin":"https://example.com","#
            + String(repeating: "x", count: 120) + "}").utf8
    )
}

/// `value` in 8 decimal digits, as the seed's `printf('%08d')`.
func eightDigits(_ value: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}

/// A small, fast generator for the ceremonies' random tokens (not for secrets).
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            withUnsafeBytes(of: next()) { bytes.append(contentsOf: $0.prefix(count - bytes.count)) }
        }
        return bytes
    }
}

func wallClock() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
