import Foundation
import Logging
import PasskeyStorage
import QRCode

/// The handoff (DESIGN §3 flow 4, cross-device approval), the first device's side: a sign-in session, before anyone asked for its
/// options, is handed off to the phone that holds the passkey — by a QR code or a deep link carrying a handoff token —
/// and two digits that the person confirms on the phone.
struct HandoffFlow: ServiceFlow {
    let context: FlowContext
    let identityVerification: IdentityVerificationFlow
    /// The handoff status streams open in this process (`limits.maxEventStreams`).
    let eventStreams: EventStreamGate
    /// Where those streams get their handoffs' statuses from.
    let watch: HandoffWatch
}

extension HandoffFlow {
    /// `POST /v1/authentications/{id}/handoff`
    func create(forSignIn flowID: String, by caller: Caller) async throws(APIError) -> HandoffResponse {
        guard let flow = try await storage({ try await store.flow(id: flowID) }), flow.kind == .authentication else {
            throw APIError.notFound("No authentication session \(flowID).")
        }
        guard flow.expiresAt > now() else { throw APIError.invalidOrExpiredSession }
        guard let linkBase = handoffLinkBase else { throw APIError.handoffNotAvailable }
        var state = try decodePayload(AuthenticationState.self, from: flow)
        let time = now()
        let handoffToken = Secrets.token(prefix: "pkh_")
        let pollToken = Secrets.token(prefix: "pkp_")
        let session = CrossPlatformSessionRecord(
            id: Secrets.identifier(prefix: "xps_"),
            flowID: flow.id,
            handoffTokenHash: Secrets.hash(handoffToken),
            pollTokenHash: Secrets.hash(pollToken),
            verificationCode: String(format: "%02d", Int.random(in: 0...99)),
            createdAt: time,
            updatedAt: time,
            handoffExpiresAt: min(expiry(configuration.expiries.handoff), flow.expiresAt),
            expiresAt: flow.expiresAt
        )
        state.crossPlatformSessionId = session.id
        let payload = try Self.encodePayload(state)
        let deepLink = linkBase + "#" + handoffToken
        let qrCode: QRCode
        do {
            qrCode = try QRCode(text: deepLink)
        } catch {
            // The configuration bounds the link's length to what a QR code holds; were it to fail, say so.
            logger.error("the handoff link does not fit a QR code", metadata: ["error": "\(error)"])
            throw APIError.unexpected
        }
        guard try await storage({ try await store.createCrossPlatformSession(session, flowPayload: payload, at: time) })
        else {
            if try await storage({ try await store.crossPlatformSession(flowID: flow.id) }) != nil {
                throw APIError.handoffAlreadyCreated
            }
            let current = try await storage { try await store.flow(id: flow.id) }
            throw (current?.expiresAt ?? time) <= time ? APIError.invalidOrExpiredSession : APIError.handoffTooLate
        }
        await audit(
            .handoffCreated,
            by: caller,
            userID: flow.userID,
            subject: session.id,
            details: ["flow": flow.id]
        )
        return HandoffResponse(
            crossPlatformSessionId: session.id,
            handoffToken: handoffToken,
            deepLink: deepLink,
            qrCodeSVG: qrCode.svg(moduleSize: 6, title: "Scan with the phone that has your passkey"),
            verificationCode: session.verificationCode,
            pollToken: pollToken,
            expiresAt: session.handoffExpiresAt
        )
    }

    /// Where a handoff's link leads: `crossDevice.linkBase`, or the server's own approval page.
    var handoffLinkBase: String? {
        configuration.crossDevice.linkBase ?? configuration.webOrigins.first.map { $0 + "/approve" }
    }

    /// `GET /v1/client/cross-platform/{id}/status`, with the poll token.
    func status(of session: CrossPlatformSessionRecord) async throws(APIError) -> HandoffStatusResponse {
        let flow = try await storage { try await store.flow(id: session.flowID) }
        return Self.status(of: session, flow: flow, at: now())
    }

    /// The handoff of the sign-in `flowID`, if it was handed off.
    func session(forSignIn flowID: String) async throws(APIError) -> CrossPlatformSessionRecord? {
        try await storage { try await store.crossPlatformSession(flowID: flowID) }
    }

    /// The error code the server refused the session's completion with, if it did.
    private static func refusal(of flow: FlowRecord) -> String? {
        guard flow.kind == .authentication, flow.status == .failed else { return nil }
        return flow.payload.withUnsafeBufferPointer { AuthenticationState(fastJSON: $0) }?.refusal
    }

    /// A handoff's status as the first device sees it. Approval is the completion of the session's flow; a
    /// rejection or a cancellation wins over it (such a handoff is never redeemed).
    static func status(
        of session: CrossPlatformSessionRecord,
        flow: FlowRecord?,
        at time: Date
    ) -> HandoffStatusResponse {
        let status: String
        if session.status == .rejected || session.status == .cancelled {
            status = session.status.rawValue
        } else if let flow, flow.status == .completed || flow.status == .redeemed {
            status = "approved"
        } else if session.status == .pending ? session.handoffExpiresAt <= time : session.expiresAt <= time {
            status = "expired"
        } else {
            status = session.status.rawValue
        }
        let refusal = status == "rejected" ? flow.flatMap(Self.refusal) : nil
        return HandoffStatusResponse(
            status: status,
            code: refusal,
            expiresAt: session.status == .pending ? session.handoffExpiresAt : session.expiresAt
        )
    }
}
