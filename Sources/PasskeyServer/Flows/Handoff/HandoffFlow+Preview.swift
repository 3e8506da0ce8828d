import Foundation
import PasskeyStorage

/// The handoff (DESIGN §3 flow 4, cross-device approval): what a handoff asks, read by the page its link opens without claiming it.
/// The page shows it and claims only when the person acts, so a link preview or a prefetch that opens the link burns
/// nothing.
extension HandoffFlow {
    /// `POST /v1/client/cross-platform/preview` {handoffToken}: the mode, action and transaction text, and whether
    /// identity verification is needed — nothing that drives the session. Refused like a claim when the handoff is
    /// claimed, cancelled or expired; unknown tokens count against the same limit as failed claims.
    func preview(
        _ request: ResumeHandoffRequest,
        by caller: Caller
    ) async throws(APIError) -> HandoffPreviewResponse {
        guard (1...128).contains(request.handoffToken.utf8.count) else { throw APIError.handoffTokenInvalid }
        let limit = FailureLimit.handoffResumes(clientIP: caller.clientIP, configuration.limits)
        try await countAttempt(limit)
        let tokenHash = Secrets.hash(request.handoffToken)
        guard let session = try await storage({ try await store.crossPlatformSession(handoffTokenHash: tokenHash) })
        else { throw APIError.handoffTokenInvalid }
        let time = now()
        switch session.status {
        case .pending where session.handoffExpiresAt > time: break
        case .pending: throw APIError.handoffExpired
        case .cancelled: throw APIError.handoffCancelled
        case .claimed, .confirmed, .rejected: throw APIError.handoffAlreadyClaimed
        }
        guard let flow = try await storage({ try await store.flow(id: session.flowID) }), flow.expiresAt > time else {
            throw APIError.handoffExpired
        }
        await releaseAttempt(limit)
        let state = try decodePayload(AuthenticationState.self, from: flow)
        return HandoffPreviewResponse(
            mode: state.mode.rawValue,
            action: state.action,
            transaction: state.transaction,
            identityVerification: state.identityVerification == true ? "required" : nil,
            expiresAt: session.handoffExpiresAt
        )
    }
}
