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
        /// Approving, on this device, a sign-in another device (a desktop browser) handed off by QR code or deep
        /// link (DESIGN §3.4): the SDK claims the handoff, has the user confirm the number the other device shows,
        /// verifies the person's identity when the session asks for it, shows the transaction, and signs. The
        /// session comes from the handoff: ``AuthenticationInput/sessionId`` and ``AuthenticationInput/clientToken``
        /// are not used (``AuthenticationInput/init(crossPlatform:)`` leaves them empty).
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

    /// How a cross-device approval runs. Equality compares the handoff token only (closures cannot be compared).
    public struct CrossPlatform: Sendable, Hashable {
        /// The handoff token: the part after `#` of the QR code's or deep link's URL (see ``handoffToken(in:)``).
        public var handoffToken: String
        /// Asks the user for the two digits the other device shows — typed, or picked among choices — and returns
        /// them; nil when the user says it was not them, which rejects the handoff (`USER_CANCELLED`). Asked again
        /// after a wrong number, with ``VerificationCodeRequest/wrongAttempts`` counting them, until the server
        /// rejects the handoff (`HANDOFF_CODE_MISMATCH`).
        public var verificationCode: @Sendable (VerificationCodeRequest) async -> String?
        /// Shows the transaction a step-up binds and returns whether the user approves it, as in
        /// ``StepUp/confirmTransaction``. Required when the session binds one.
        public var confirmTransaction: (@Sendable (TransactionDetails) async -> Bool)?

        public init(
            handoffToken: String,
            verificationCode: @escaping @Sendable (VerificationCodeRequest) async -> String?,
            confirmTransaction: (@Sendable (TransactionDetails) async -> Bool)? = nil
        ) {
            self.handoffToken = handoffToken
            self.verificationCode = verificationCode
            self.confirmTransaction = confirmTransaction
        }

        /// The handoff token in a deep link or QR code's text (`https://example.com/approve#pkh_…`), or the text
        /// itself when it has no `#`.
        public static func handoffToken(in link: String) -> String {
            guard let hash = link.lastIndex(of: "#") else { return link }
            return String(link[link.index(after: hash)...])
        }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.handoffToken == rhs.handoffToken }
        public func hash(into hasher: inout Hasher) { hasher.combine(handoffToken) }
    }

    /// What the user is asked for the verification code.
    public struct VerificationCodeRequest: Sendable, Hashable {
        /// The claimed handoff: what is approved (``CrossPlatformHandoff/transaction``, ``CrossPlatformHandoff/action``).
        public var handoff: CrossPlatformHandoff
        /// Wrong numbers sent so far.
        public var wrongAttempts: Int
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

    /// A cross-device approval: the session and its client token come from the handoff.
    public init(crossPlatform: CrossPlatform, hints: [PublicKeyCredentialHint] = []) {
        self.init(sessionId: "", clientToken: "", mode: .crossPlatform(crossPlatform), hints: hints)
    }

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
    /// Nil when this device approved a session handed off from another device (mode `.crossPlatform`): the device
    /// that handed it off redeems it, with its poll token.
    public var resultToken: String?
    public var expiresAt: Date
    /// The passkey used, unpadded base64url.
    public var credentialId: String
    /// The WebAuthn user handle the passkey returned (usernameless sign-in), unpadded base64url.
    public var userHandle: String?
    /// The transaction the user confirmed and signed (step-up sessions that bind one).
    public var transaction: TransactionDetails?
    /// The handoff this device approved (mode `.crossPlatform`).
    public var crossPlatformSessionId: String?

    public init(
        sessionId: String,
        resultToken: String?,
        expiresAt: Date,
        credentialId: String,
        userHandle: String?,
        transaction: TransactionDetails? = nil,
        crossPlatformSessionId: String? = nil
    ) {
        self.crossPlatformSessionId = crossPlatformSessionId
        self.sessionId = sessionId
        self.resultToken = resultToken
        self.expiresAt = expiresAt
        self.credentialId = credentialId
        self.userHandle = userHandle
        self.transaction = transaction
    }
}
