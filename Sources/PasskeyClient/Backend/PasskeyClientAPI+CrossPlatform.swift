public import Foundation

/// Cross-device approval (DESIGN §3.4): the phone's calls, and the first device's status.
extension PasskeyClientAPI {
    /// `POST /v1/client/cross-platform/resume`: claims the handoff; the first claim wins (`HANDOFF_ALREADY_CLAIMED`).
    public func resumeHandoff(handoffToken: String) async throws(PasskeyError) -> CrossPlatformHandoff {
        try await requester.send(
            "POST",
            ["v1", "client", "cross-platform", "resume"],
            token: nil,
            body: ["handoffToken": handoffToken],
            as: CrossPlatformHandoff.self
        )
    }

    /// `POST /v1/client/cross-platform/{id}/confirm`: the two digits the first device shows.
    public func confirmHandoff(
        _ handoff: CrossPlatformHandoff,
        verificationCode: String
    ) async throws(PasskeyError) -> HandoffStatus {
        try await requester.send(
            "POST",
            ["v1", "client", "cross-platform", handoff.crossPlatformSessionId, "confirm"],
            token: handoff.clientToken,
            body: ["verificationCode": verificationCode],
            as: HandoffStatus.self
        )
    }

    /// `POST /v1/client/cross-platform/{id}/reject`: the person says it was not them.
    public func rejectHandoff(_ handoff: CrossPlatformHandoff) async throws(PasskeyError) -> HandoffStatus {
        try await requester.send(
            "POST",
            ["v1", "client", "cross-platform", handoff.crossPlatformSessionId, "reject"],
            token: handoff.clientToken,
            body: EmptyBody(),
            as: HandoffStatus.self
        )
    }

    /// `POST /biometric-passkey/mobile/cross-platform/{id}/idv/start`, once the number is confirmed.
    public func startHandoffIdentityVerification(
        _ handoff: CrossPlatformHandoff
    ) async throws(PasskeyError) -> IdentityVerificationStart {
        try await requester.send(
            "POST",
            ["biometric-passkey", "mobile", "cross-platform", handoff.crossPlatformSessionId, "idv", "start"],
            token: handoff.clientToken,
            body: EmptyBody(),
            as: IdentityVerificationStart.self
        )
    }

    /// `GET /v1/client/cross-platform/{id}/status`, for the first device, with the handoff's poll token.
    public func handoffStatus(
        crossPlatformSessionId: String,
        pollToken: String
    ) async throws(PasskeyError) -> HandoffStatus {
        try await requester.send(
            "GET",
            ["v1", "client", "cross-platform", crossPlatformSessionId, "status"],
            token: pollToken,
            body: EmptyBody?.none,
            as: HandoffStatus.self
        )
    }
}

/// A handoff this device claimed: the session it signs, and what the person approves.
public struct CrossPlatformHandoff: Sendable, Hashable, Codable {
    public var crossPlatformSessionId: String
    /// The sign-in session, driven from here with ``clientToken``.
    public var biometricPasskeySessionId: String
    public var clientToken: String
    /// `standard` or `stepUp`.
    public var mode: String
    public var action: String?
    /// The transaction a step-up binds; the SDK checks it against the challenge before anything is signed.
    public var transaction: TransactionDetails?
    /// `required` when the person's identity must be verified on this device first.
    public var identityVerification: String?
    public var expiresAt: Date

    public var requiresIdentityVerification: Bool { identityVerification == "required" }
}

/// Where a handoff stands: `pending`, `claimed`, `confirmed`, `approved`, `rejected` or `expired`.
public struct HandoffStatus: Sendable, Hashable, Codable {
    public var status: String
    public var expiresAt: Date
}
