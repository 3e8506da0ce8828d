import Foundation

/// `POST /v1/authentications/{id}/handoff`: what the device that starts a cross-device approval shows and keeps.
struct HandoffResponse: Encodable, Sendable {
    let crossPlatformSessionId: String
    /// The phone claims the handoff with it; it is in `deepLink` and the QR code, after `#`.
    let handoffToken: String
    let deepLink: String
    /// The QR code of `deepLink`, as an SVG document.
    let qrCodeSVG: String
    /// Two digits the first device shows; the person confirms them on the phone.
    let verificationCode: String
    /// Reads the status (`…/status`, `…/events`), and redeems the session once approved.
    let pollToken: String
    /// Until when the phone may claim the handoff.
    let expiresAt: Date
}

/// `POST /v1/client/cross-platform/resume`
struct ResumeHandoffRequest: Decodable, Sendable {
    let handoffToken: String
}

struct ResumeHandoffResponse: Encodable, Sendable {
    let crossPlatformSessionId: String
    let biometricPasskeySessionId: String
    /// Drives the session from the phone: confirm, reject, identity verification, and flow 2's options and complete.
    let clientToken: String
    /// `standard` or `stepUp`.
    let mode: String
    let action: String?
    let transaction: Transaction?
    /// `required` when the phone must verify the person's identity before signing.
    let identityVerification: String?
    let expiresAt: Date
}

/// `POST /v1/client/cross-platform/preview`: what an unclaimed handoff asks, and nothing that drives it.
struct HandoffPreviewResponse: Encodable, Sendable {
    /// `standard` or `stepUp`.
    let mode: String
    let action: String?
    let transaction: Transaction?
    /// `required` when the phone must verify the person's identity before signing.
    let identityVerification: String?
    /// Until when the handoff may be claimed.
    let expiresAt: Date
}

/// `POST /v1/client/cross-platform/{id}/confirm`
struct ConfirmHandoffRequest: Decodable, Sendable {
    let verificationCode: String
}

/// What a handoff's status reads: `pending`, `claimed`, `confirmed`, `approved`, `rejected`, `cancelled` or
/// `expired`.
struct HandoffStatusResponse: Encodable, Sendable, Equatable {
    let status: String
    /// For `rejected` by the server rather than the person: why (`DEMO_ACCOUNT_REQUIRED`).
    var code: String? = nil
    let expiresAt: Date

    /// Whether the status can no longer change.
    var isFinal: Bool { ["approved", "rejected", "cancelled", "expired"].contains(status) }
}
