public import Foundation

extension PasskeyBackendAPI {
    /// `POST /v1/authentications/{id}/handoff`: hands a new sign-in session off to a phone (DESIGN §3.4). Show
    /// ``Handoff/qrCodeSVG`` and ``Handoff/verificationCode``; follow ``PasskeyClientAPI/handoffStatus(crossPlatformSessionId:pollToken:)``;
    /// once approved, redeem the session with ``Handoff/pollToken`` as its result token.
    public func createHandoff(sessionId: String) async throws(PasskeyError) -> Handoff {
        try await requester.send(
            "POST",
            ["v1", "authentications", sessionId, "handoff"],
            token: apiKey,
            body: EmptyBody(),
            as: Handoff.self
        )
    }
}

/// A sign-in session handed off to a phone, as the device that hands it off shows and keeps it.
public struct Handoff: Sendable, Hashable, Codable {
    public var crossPlatformSessionId: String
    /// The phone claims the handoff with it; ``deepLink`` carries it after `#`.
    public var handoffToken: String
    public var deepLink: String
    /// The QR code of ``deepLink``, an SVG document.
    public var qrCodeSVG: String
    /// Two digits to show; the person confirms them on the phone.
    public var verificationCode: String
    /// Reads the status; once approved, the session's result token.
    public var pollToken: String
    /// Until when the phone may claim the handoff.
    public var expiresAt: Date
}
