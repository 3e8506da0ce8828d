public import Foundation
public import WebAuthn

/// What ``PasskeyClient/authenticate(_:)`` needs: the sign-in session the app's backend created
/// (`POST /v1/authentications` → `biometricPasskeySessionId`, `clientToken`), and how to sign in.
public struct AuthenticationInput: Sendable, Hashable {
    /// How the sign-in runs.
    public enum Mode: Sendable, Hashable {
        /// Standard sign-in, with a user name (the session names the user) or without (usernameless).
        case standard
        /// Step-up for a risky action, with optional identity verification (DESIGN §3.3). Not available in
        /// this version: fails with `FEATURE_NOT_AVAILABLE`. (A session created with mode `stepUp` works with
        /// ``standard``: the server requires user verification.)
        case stepUp(StepUp)
        /// Approving a browser session on this device (DESIGN §3.4). Not available in this version: fails with
        /// `FEATURE_NOT_AVAILABLE`.
        case crossPlatform(CrossPlatform)
    }

    public struct StepUp: Sendable, Hashable {
        /// Whether identity verification runs before the assertion.
        public var identityVerification: Bool
        public init(identityVerification: Bool = false) { self.identityVerification = identityVerification }
    }

    public struct CrossPlatform: Sendable, Hashable {
        /// The handoff token from the QR code or deep link.
        public var handoffToken: String
        /// The two digits the browser shows, confirmed by the user.
        public var verificationCode: String
        public init(handoffToken: String, verificationCode: String) {
            self.handoffToken = handoffToken
            self.verificationCode = verificationCode
        }
    }

    public var sessionId: String
    public var clientToken: String
    public var mode: Mode
    /// Narrows the passkeys that may be used (unpadded base64url ids). Nil: the server's list. Empty: invalid
    /// (`INVALID_INPUT`) — leave it nil for usernameless sign-in.
    public var allowCredentials: [String]?
    /// Raises the server's user verification requirement (never lowers it).
    public var userVerification: UserVerificationRequirement?
    /// Hints for the client UI (`security-key`, `client-device`, `hybrid`), added after the server's.
    public var hints: [PublicKeyCredentialHint]

    public init(
        sessionId: String,
        clientToken: String,
        mode: Mode = .standard,
        allowCredentials: [String]? = nil,
        userVerification: UserVerificationRequirement? = nil,
        hints: [PublicKeyCredentialHint] = []
    ) {
        self.sessionId = sessionId
        self.clientToken = clientToken
        self.mode = mode
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
        self.hints = hints
    }
}

/// What a sign-in produced: the result token for the app's backend to redeem (`POST
/// /v1/authentications/{id}/redeem`), which tells it who signed in.
public struct AuthenticationResult: Sendable, Hashable {
    public var sessionId: String
    public var resultToken: String
    public var expiresAt: Date
    /// The passkey used, unpadded base64url.
    public var credentialId: String
    /// The WebAuthn user handle the passkey returned (usernameless sign-in), unpadded base64url.
    public var userHandle: String?

    public init(sessionId: String, resultToken: String, expiresAt: Date, credentialId: String, userHandle: String?) {
        self.sessionId = sessionId
        self.resultToken = resultToken
        self.expiresAt = expiresAt
        self.credentialId = credentialId
        self.userHandle = userHandle
    }
}
