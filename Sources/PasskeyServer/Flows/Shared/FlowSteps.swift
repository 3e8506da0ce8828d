import Foundation
import HTTPTypes
import Logging
import PasskeyStorage
import WebAuthn

/// The steps every ceremony takes on its flow record: a challenge issued, consumed once, a failure marked, and the
/// flow's own state read and written as its payload.
extension ServiceFlow {
    /// Issues a new challenge for the flow (while it awaits options or a response) and returns it.
    /// Issues `challenge` for `flow` when its status is one of `statuses` (by default: a challenge may be issued
    /// again until the flow completes), storing `payload` with it when given.
    func issueChallenge(
        _ flow: FlowRecord,
        challenge: [UInt8] = Secrets.randomBytes(32),
        from statuses: Set<FlowStatus> = [.created, .optionsIssued, .failed],
        payload: [UInt8]? = nil
    ) async throws(APIError) -> [UInt8] {
        let expiresAt = min(expiry(configuration.expiries.challenge), flow.expiresAt)
        let update = FlowUpdate(
            status: .optionsIssued,
            challengeHash: Secrets.hash(challenge),
            challengeExpiresAt: expiresAt,
            payload: payload
        )
        let time = now()
        let updated = try await storage {
            try await store.updateFlow(id: flow.id, expectedStatuses: statuses, at: time, update: update)
        }
        guard updated != nil else {
            if let ended = endedRefusal(flow) { throw ended }
            if flow.kind == .registration {
                throw .registrationAttemptConflict("This registration attempt is already complete.")
            }
            // A flow that has not expired was refused for its status: its challenge was issued already.
            throw !statuses.contains(.optionsIssued) && flow.expiresAt > time
                ? .challengeRefreshForbidden : .invalidOrExpiredSession
        }
        return challenge
    }

    /// Why a flow that ended before it completed refuses the call: cancelled by the backend, aborted by the backend
    /// because its identity provider refused the passkey, or ended by a reset of its user (`FLOW_ENDED`). Nil while it
    /// has not ended so.
    func endedRefusal(_ flow: FlowRecord) -> APIError? {
        switch flow.status {
        case .cancelled: return .registrationAttemptCancelled
        case .aborted:
            let reason = flow.kind == .registration ? (try? decodePayload(RegistrationState.self, from: flow)) : nil
            return reason?.abortReason == AbortReason.idpCommitFailed ? .idpCommitFailed : .flowEnded
        default: return nil
        }
    }

    /// Consumes the challenge named in `clientDataJSON`, atomically, and returns it with the flow as it was.
    /// Exactly one of any number of concurrent completions gets past this point.
    func consumeChallenge(_ flow: FlowRecord, clientDataJSON: [UInt8]) async throws(APIError) -> [UInt8] {
        let clientData: CollectedClientData
        do {
            clientData = try CollectedClientData(jsonBytes: clientDataJSON)
        } catch {
            throw APIError(error)
        }
        guard let challenge = try? Base64URL.decode(clientData.challenge), !challenge.isEmpty else {
            throw APIError(
                .challengeMismatch,
                .badRequest,
                "clientData.challenge is not the challenge issued for this session."
            )
        }
        let consumed = try await storage {
            try await store.consumeChallenge(flowID: flow.id, challengeHash: Secrets.hash(challenge), at: now())
        }
        guard consumed == nil else { return challenge }
        // Say why, from the flow as it is now (a benign race can only change which of these is reported).
        let current = try await storage { try await store.flow(id: flow.id) } ?? flow
        if let ended = endedRefusal(current) { throw ended }
        if current.challengeHash == nil {
            throw current.status == .optionsIssued || current.status == .created || current.status == .failed
                ? APIError(
                    .challengeMismatch,
                    .badRequest,
                    "No challenge is pending for this session; request options first."
                )
                : .challengeConsumed
        }
        if let expiry = current.challengeExpiresAt, expiry <= now() { throw .challengeExpired }
        throw APIError(
            .challengeMismatch,
            .badRequest,
            "clientData.challenge is not the challenge issued for this session; use the latest options."
        )
    }

    /// Marks a flow whose response failed verification, so the client can request new options.
    func markFailed(_ flow: FlowRecord) async {
        _ = try? await store.updateFlow(
            id: flow.id,
            expectedStatuses: [.verifying],
            at: now(),
            update: FlowUpdate(status: .failed)
        )
    }

    /// What every ceremony's completion does when its response is refused: the flow is marked failed (the client may
    /// ask for new options), the failure counted in the metrics and written to the audit log with its code (and a
    /// sign-in's `action`).
    func ceremonyFailed(
        _ ceremony: Ceremony,
        flow: FlowRecord,
        userID: String?,
        code: APIError.Code,
        action: String? = nil,
        by caller: Caller
    ) async {
        await markFailed(flow)
        metrics.ceremony(ceremony.rawValue, outcome: "failed", action: action)
        await audit(
            ceremony.failed,
            by: caller,
            userID: userID,
            subject: flow.id,
            details: ["code": code.rawValue].withAction(action)
        )
    }

    /// A flow's payload as stored. Our payload types hold only strings, numbers, booleans and dates, so encoding
    /// does not fail; were it to, the request fails with `INTERNAL_ERROR` rather than the process.
    static func encodePayload(_ value: some Encodable) throws(APIError) -> [UInt8] {
        // The flows' own payloads are written without JSONEncoder, as JSON it decodes to the same value.
        if let writable = value as? any JSONWritable, let bytes = JSONWriter.write(writable, dates: .secondsSince1970) {
            return bytes
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        guard let data = try? encoder.encode(value) else { throw APIError.unexpected }
        return Array(data)
    }

    func decodePayload<T: Decodable>(_ type: T.Type, from flow: FlowRecord) throws(APIError) -> T {
        // Payloads in FastJSON's subset (those written above, and most that JSONEncoder wrote) skip JSONDecoder.
        if let fast = T.self as? any FastJSONDecodable.Type,
            let value = flow.payload.withUnsafeBufferPointer({ fast.init(fastJSON: $0) }) as? T
        {
            return value
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let value = try? decoder.decode(type, from: Data(flow.payload)) else {
            logger.error("flow payload cannot be decoded", metadata: ["flow": "\(flow.id)"])
            throw APIError.unexpected
        }
        return value
    }
}

/// The two WebAuthn ceremonies, as the metrics and the audit log name them.
enum Ceremony: String, Sendable {
    case registration
    case authentication

    /// The audit action of a refused response.
    var failed: AuditAction { self == .registration ? .registrationFailed : .authenticationFailed }
}
