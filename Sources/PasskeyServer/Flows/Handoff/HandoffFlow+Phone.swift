import Foundation
import PasskeyStorage

/// The handoff (DESIGN §3 flow 4, cross-device approval), the phone's side: it claims the handoff (the first claim wins), the
/// person confirms the two digits shown on the first device — or says "not me" — and the phone then runs flow 2 on
/// the same session with the client token the claim gave it.
extension HandoffFlow {
    /// `POST /v1/client/cross-platform/resume`
    func resume(
        _ request: ResumeHandoffRequest,
        by caller: Caller
    ) async throws(APIError) -> ResumeHandoffResponse {
        guard (1...128).contains(request.handoffToken.utf8.count) else { throw APIError.handoffTokenInvalid }
        // Failed claims from one address are limited (tokens are not guessable, but a flood of tries is refused).
        let limit = FailureLimit.handoffResumes(clientIP: caller.clientIP, configuration.limits)
        try await countAttempt(limit)
        let tokenHash = Secrets.hash(request.handoffToken)
        let clientToken = Secrets.token(prefix: "pkc_")
        let time = now()
        guard
            let session = try await storage({
                try await store.claimCrossPlatformSession(
                    handoffTokenHash: tokenHash,
                    clientTokenHash: Secrets.hash(clientToken),
                    at: time
                )
            })
        else {
            guard let session = try await storage({ try await store.crossPlatformSession(handoffTokenHash: tokenHash) })
            else { throw APIError.handoffTokenInvalid }
            switch session.status {
            case .pending: throw APIError.handoffExpired
            case .cancelled: throw APIError.handoffCancelled
            case .claimed, .confirmed, .rejected: throw APIError.handoffAlreadyClaimed
            }
        }
        await releaseAttempt(limit)
        guard let flow = try await storage({ try await store.flow(id: session.flowID) }) else {
            throw APIError.handoffExpired
        }
        let state = try decodePayload(AuthenticationState.self, from: flow)
        await audit(
            .handoffClaimed,
            by: caller,
            userID: flow.userID,
            subject: session.id,
            details: ["flow": flow.id]
        )
        return ResumeHandoffResponse(
            crossPlatformSessionId: session.id,
            biometricPasskeySessionId: flow.id,
            clientToken: clientToken,
            mode: state.mode.rawValue,
            action: state.action,
            transaction: state.transaction,
            identityVerification: state.identityVerification == true ? "required" : nil,
            expiresAt: session.expiresAt
        )
    }

    /// `POST /v1/client/cross-platform/{id}/confirm`, for the handoff the phone's token drives: the person typed (or
    /// picked) the number the first device shows.
    /// The configured number of wrong numbers (`crossDevice.codeAttempts`, 3) rejects the handoff.
    func confirm(
        _ session: CrossPlatformSessionRecord,
        request: ConfirmHandoffRequest,
        by caller: Caller
    ) async throws(APIError) -> HandoffStatusResponse {
        let id = session.id
        let code = request.verificationCode
        guard code.utf8.count == 2, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw APIError.invalidRequest("verificationCode must be the two digits shown on the other device.")
        }
        try Self.refuseClosed(session, at: now())
        let time = now()
        let attempts = configuration.crossDevice.codeAttempts
        let matches = Secrets.constantTimeEqual(Array(code.utf8), Array(session.verificationCode.utf8))
        if session.status == .confirmed {
            // Confirmed already (a retried request): the same number answers the same; another is not counted.
            guard matches else { throw APIError.handoffCodeMismatch(attemptsLeft: attempts - session.codeFailures) }
            return Self.status(of: session, flow: nil, at: time)
        }
        if matches {
            let confirmed = try await storage {
                try await store.updateCrossPlatformSession(id: id, from: [.claimed], to: .confirmed, at: time)
            }
            guard let confirmed else {
                let current = try await closedHandoff(id)
                return Self.status(of: current, flow: nil, at: time)
            }
            await audit(.handoffConfirmed, by: caller, userID: nil, subject: id)
            return Self.status(of: confirmed, flow: nil, at: time)
        }
        guard
            let counted = try await storage({
                try await store.countCrossPlatformCodeFailure(id: id, rejectAt: attempts, at: time)
            })
        else {
            let current = try await closedHandoff(id)
            throw APIError.handoffCodeMismatch(attemptsLeft: max(0, attempts - current.codeFailures))
        }
        if counted.status == .rejected {
            await audit(.handoffRejected, by: caller, userID: nil, subject: id, details: ["reason": "codeMismatch"])
        }
        throw APIError.handoffCodeMismatch(attemptsLeft: max(0, attempts - counted.codeFailures))
    }

    /// `POST /v1/client/cross-platform/{id}/reject`: the person says it was not them.
    func reject(
        _ session: CrossPlatformSessionRecord,
        by caller: Caller
    ) async throws(APIError) -> HandoffStatusResponse {
        let id = session.id
        let flow = try await storage { try await store.flow(id: session.flowID) }
        if let flow, flow.status == .completed || flow.status == .redeemed { throw APIError.handoffAlreadyApproved }
        try Self.refuseClosed(session, at: now())
        let time = now()
        guard
            let rejected = try await storage({
                try await store.updateCrossPlatformSession(
                    id: id,
                    from: [.claimed, .confirmed],
                    to: .rejected,
                    at: time
                )
            })
        else {
            let current = try await closedHandoff(id)
            throw current.status == .confirmed ? APIError.handoffNotConfirmed : APIError.handoffRejected
        }
        await audit(.handoffRejected, by: caller, userID: flow?.userID, subject: id, details: ["reason": "person"])
        return Self.status(of: rejected, flow: nil, at: time)
    }

    /// `POST /biometric-passkey/mobile/cross-platform/{id}/idv/start`: the phone starts the identity verification its
    /// step-up session requires, once the person confirmed the number.
    func startIdentityVerification(
        for session: CrossPlatformSessionRecord,
        by caller: Caller
    ) async throws(APIError) -> WorkflowRunStart {
        try Self.refuseClosed(session, at: now())
        guard session.status == .confirmed else { throw APIError.handoffNotConfirmed }
        guard let flow = try await storage({ try await store.flow(id: session.flowID) }) else {
            throw APIError.handoffExpired
        }
        let state = try decodePayload(AuthenticationState.self, from: flow)
        guard state.identityVerification == true, let userID = flow.userID else {
            throw APIError.invalidRequest("This sign-in session does not ask for identity verification.")
        }
        return try await identityVerification.startWorkflowRun(
            purpose: .crossPlatform,
            userID: userID,
            flowID: state.workflowRunKey(flow),
            by: caller
        )
    }

    /// Before a handed-off session issues options or completes: its handoff must be confirmed, and not rejected.
    func requireConfirmed(id: String) async throws(APIError) -> CrossPlatformSessionRecord {
        guard let session = try await storage({ try await store.crossPlatformSession(id: id) }) else {
            throw APIError.invalidOrExpiredSession
        }
        try Self.refuseClosed(session, at: now())
        guard session.status == .confirmed else { throw APIError.handoffNotConfirmed }
        return session
    }

    /// Refuses a handoff that was rejected, cancelled or has expired.
    static func refuseClosed(_ session: CrossPlatformSessionRecord, at time: Date) throws(APIError) {
        if session.status == .rejected { throw APIError.handoffRejected }
        if session.status == .cancelled { throw APIError.handoffCancelled }
        if session.expiresAt <= time { throw APIError.handoffExpired }
    }

    /// The handoff as it is after a compare-and-set on it failed: refused when that was because it closed meanwhile.
    private func closedHandoff(_ id: String) async throws(APIError) -> CrossPlatformSessionRecord {
        guard let session = try await storage({ try await store.crossPlatformSession(id: id) }) else {
            throw APIError.handoffExpired
        }
        try Self.refuseClosed(session, at: now())
        return session
    }
}
