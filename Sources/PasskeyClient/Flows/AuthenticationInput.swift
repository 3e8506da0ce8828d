public import Foundation
public import WebAuthn

/// What ``PasskeyClient/authenticate(_:)`` needs: the sign-in session the app's backend created
/// (`POST /v1/authentications` → `biometricPasskeySessionId`, `clientToken`), and how to sign in.
public struct AuthenticationInput: Sendable, Hashable {
    /// How the sign-in runs.
    public enum Mode: Sendable, Hashable {
        /// Standard sign-in, with a user name (the session names the user) or without (usernameless).
        case standard
        /// Step-up for a risky action: user verification, optionally identity verification first, and — when the
        /// session binds a transaction — the user's confirmation of its text, checked against the challenge
        /// (DESIGN §3.3).
        case stepUp(StepUp)
        /// Approving a browser session on this device (DESIGN §3.4). Not available in this version: fails with
        /// `FEATURE_NOT_AVAILABLE`.
        case crossPlatform(CrossPlatform)
    }

    /// How a step-up runs. Equality ignores ``confirmTransaction`` (closures cannot be compared).
    public struct StepUp: Sendable, Hashable {
        /// Whether identity verification runs before the assertion: the SDK starts it for the session, runs the
        /// ``PasskeyClient``'s ``IdentityVerifier``, and waits for the server to approve it. Set it when your
        /// backend created the session with `identityVerification: "required"`.
        public var identityVerification: Bool
        /// Shows the transaction the session binds to the user and returns whether they approve it; called after
        /// the SDK checked that the challenge carries the digest of this very text, before anything is signed.
        /// False ends the step-up with `USER_CANCELLED`. Required when the session binds a transaction
        /// (`INVALID_CONFIGURATION` without it).
        public var confirmTransaction: (@Sendable (TransactionDetails) async -> Bool)?

        public init(
            identityVerification: Bool = false,
            confirmTransaction: (@Sendable (TransactionDetails) async -> Bool)? = nil
        ) {
            self.identityVerification = identityVerification
            self.confirmTransaction = confirmTransaction
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.identityVerification == rhs.identityVerification
                && (lhs.confirmTransaction == nil) == (rhs.confirmTransaction == nil)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(identityVerification)
            hasher.combine(confirmTransaction == nil)
        }
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
    /// The transaction the user confirmed and signed (step-up sessions that bind one).
    public var transaction: TransactionDetails?

    public init(
        sessionId: String,
        resultToken: String,
        expiresAt: Date,
        credentialId: String,
        userHandle: String?,
        transaction: TransactionDetails? = nil
    ) {
        self.sessionId = sessionId
        self.resultToken = resultToken
        self.expiresAt = expiresAt
        self.credentialId = credentialId
        self.userHandle = userHandle
        self.transaction = transaction
    }
}
