import Foundation
import PasskeyStorage

/// The one place a client's token is turned into what it may drive: a flow, a handoff (the phone's or the first
/// device's side) or a recovery attempt. Every client route resolves its credential here before its handler runs
/// (``Route``), and the pages use the same resolution; no flow compares a token itself.
///
/// The rule (``holds(_:for:)``): a token authorizes exactly the record whose stored hash is the token's SHA-256,
/// compared in constant time. An unknown record and a wrong token look alike, so a token for one record reveals
/// nothing about another.
struct ClientAuthorization: ServiceFlow {
    let context: FlowContext

    /// The token rule, written once.
    static func holds(_ presented: String?, for storedHash: [UInt8]?) -> Bool {
        guard let presented, let storedHash, (1...4096).contains(presented.utf8.count) else { return false }
        return Secrets.constantTimeEqual(storedHash, Secrets.hash(presented))
    }

    /// The flow of `kind` that the client token drives (`UNAUTHENTICATED` otherwise), while it has not expired.
    func flow(id: String, token: String?, kind: FlowKind) async throws(APIError) -> FlowRecord {
        let found = try await record(id, token, .unauthenticated, { try await store.flow(id: id) })
        if found == nil, kind == .registration, try await storage({ try await store.purgedRegistration(id: id) }) != nil
        {
            throw APIError.registrationAttemptCleanedUp
        }
        guard let flow = found, flow.kind == kind, Self.holds(token, for: flow.clientTokenHash) else {
            throw APIError.unauthenticated
        }
        guard flow.expiresAt > now() else {
            throw kind == .registration ? .registrationAttemptExpired : .invalidOrExpiredSession
        }
        return flow
    }

    /// The two devices of a handoff, each with a token of its own.
    enum HandoffSide: Sendable {
        /// The phone, with the client token its claim returned.
        case phone
        /// The first device, with the poll token it follows the handoff with (status, events, cancel).
        case firstDevice
    }

    /// The handoff `side`'s token drives or follows.
    func handoff(id: String, token: String?, side: HandoffSide) async throws(APIError) -> CrossPlatformSessionRecord {
        guard
            let session = try await record(
                id,
                token,
                .unauthenticated,
                { try await store.crossPlatformSession(id: id) }
            ),
            Self.holds(token, for: side == .phone ? session.clientTokenHash : session.pollTokenHash)
        else { throw APIError.unauthenticated }
        return session
    }

    /// The recovery attempt whose recovery token this is (`RECOVERY_TOKEN_INVALID` otherwise), in any state.
    func recoveryAttempt(id: String, token: String?) async throws(APIError) -> RecoveryAttemptRecord {
        guard
            let attempt = try await record(
                id,
                token,
                .recoveryTokenInvalid,
                { try await store.recoveryAttempt(id: id) }
            ),
            Self.holds(token, for: attempt.tokenHash)
        else { throw APIError.recoveryTokenInvalid }
        return attempt
    }

    /// The recovery attempt and its replacement registration whose continuation token this is
    /// (`RECOVERY_CONTINUATION_INVALID` otherwise), in any state.
    func recoveryContinuation(
        attemptID: String,
        token: String?
    ) async throws(APIError) -> (attempt: RecoveryAttemptRecord, flow: FlowRecord) {
        guard
            let attempt = try await record(
                attemptID,
                token,
                .recoveryContinuationInvalid,
                { try await store.recoveryAttempt(id: attemptID) }
            ),
            let flowID = attempt.registrationFlowID,
            let flow = try await storage({ try await store.flow(id: flowID) }), flow.kind == .recoveryRegistration,
            Self.holds(token, for: flow.clientTokenHash)
        else { throw APIError.recoveryContinuationInvalid }
        return (attempt, flow)
    }

    /// The record named `id`, read only when a token was presented and the id is one of ours in length.
    private func record<Record>(
        _ id: String,
        _ token: String?,
        _ refusal: APIError,
        _ read: () async throws -> Record?
    ) async throws(APIError) -> Record? {
        guard token != nil, (1...128).contains(id.utf8.count) else { throw refusal }
        return try await storage(read)
    }
}
