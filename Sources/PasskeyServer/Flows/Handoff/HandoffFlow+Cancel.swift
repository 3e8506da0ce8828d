import Foundation
import PasskeyStorage

/// The handoff (DESIGN §3 flow 4, cross-device approval): the first device calls its handoff off — the person closed the dialog,
/// or signs in another way. A cancelled handoff is final: its status reads `cancelled`, the phone can no longer claim,
/// confirm, reject or sign it, and its session is never redeemed.
extension HandoffFlow {
    /// `POST /v1/client/cross-platform/{id}/cancel`, with the poll token. Cancelling again answers the same.
    func cancel(
        _ session: CrossPlatformSessionRecord,
        by caller: Caller
    ) async throws(APIError) -> HandoffStatusResponse {
        let id = session.id
        let time = now()
        if session.status == .cancelled { return Self.status(of: session, flow: nil, at: time) }
        let flow = try await storage { try await store.flow(id: session.flowID) }
        if let flow, flow.status == .completed || flow.status == .redeemed { throw APIError.handoffCancelTooLate }
        try Self.refuseClosed(session, at: time)
        guard
            let cancelled = try await storage({
                try await store.updateCrossPlatformSession(
                    id: id,
                    from: [.pending, .claimed, .confirmed],
                    to: .cancelled,
                    at: time
                )
            })
        else {
            // It closed meanwhile: cancelled by a racing request (the same answer), rejected, or expired.
            guard let current = try await storage({ try await store.crossPlatformSession(id: id) }) else {
                throw APIError.handoffExpired
            }
            if current.status == .cancelled { return Self.status(of: current, flow: nil, at: time) }
            try Self.refuseClosed(current, at: time)
            throw APIError.handoffExpired
        }
        await audit(
            .handoffCancelled,
            by: caller,
            userID: flow?.userID,
            subject: id,
            details: ["flow": session.flowID]
        )
        return Self.status(of: cancelled, flow: nil, at: time)
    }
}
