/// Asks the user to confirm a ceremony: user presence (a tap) or user verification (biometrics, a passcode,
/// a PIN). Injected into the authenticators, so tests and command-line tools decide the outcome.
public protocol UserVerifier: Sendable {
    /// - Returns: whether the user was verified or only present.
    /// - Throws: `USER_CANCELLED` when the user declines, `BIOMETRIC_LOCKOUT` when biometrics are locked,
    ///   `USER_VERIFICATION_FAILED` when verification failed.
    func verifyUser(_ request: UserVerificationRequest) async throws(PasskeyError) -> UserVerificationOutcome
}

/// What the user is asked to confirm.
public struct UserVerificationRequest: Sendable, Hashable {
    public enum Ceremony: String, Sendable, Hashable {
        case registration
        case authentication
    }

    public var ceremony: Ceremony
    public var rpID: String
    /// The account, when known (`user.name` at registration; the chosen passkey's at authentication).
    public var userName: String?
    /// `required`, `preferred` or `discouraged` (where only presence is asked).
    public var userVerification: UserVerificationRequirementValue

    public init(ceremony: Ceremony, rpID: String, userName: String?, userVerification: UserVerificationRequirementValue)
    {
        self.ceremony = ceremony
        self.rpID = rpID
        self.userName = userName
        self.userVerification = userVerification
    }
}

/// The user verification requirement as the authenticator applies it (unknown values count as `preferred`, as
/// WebAuthn §5.8.6 says for clients).
public enum UserVerificationRequirementValue: String, Sendable, Hashable {
    case required
    case preferred
    case discouraged
}

/// How a user confirmed a ceremony. `context` carries what an adapter needs to use the confirmation (such as an
/// evaluated `LAContext` for Secure Enclave keys).
public struct UserVerificationOutcome: Sendable {
    public var userVerified: Bool
    public var context: (any Sendable)?

    public init(userVerified: Bool, context: (any Sendable)? = nil) {
        self.userVerified = userVerified
        self.context = context
    }

    /// Verified (biometrics, passcode or PIN).
    public static let verified = Self(userVerified: true)
    /// Present (a tap) but not verified.
    public static let presenceOnly = Self(userVerified: false)
}

/// A verifier that answers at once — for servers, tools and tests. With `verifiesUser` (the default) it reports
/// the user verified, except where the relying party discouraged verification (then only presence, as a
/// platform authenticator that honours `discouraged` would); without, it reports presence only.
public struct AutomaticUserVerifier: UserVerifier {
    public let verifiesUser: Bool

    public init(verifiesUser: Bool = true) { self.verifiesUser = verifiesUser }

    public func verifyUser(_ request: UserVerificationRequest) async throws(PasskeyError) -> UserVerificationOutcome {
        verifiesUser && request.userVerification != .discouraged ? .verified : .presenceOnly
    }
}

/// A verifier that runs a closure: a prompt in a command-line tool, a script in a test.
public struct ClosureUserVerifier: UserVerifier {
    let body: @Sendable (UserVerificationRequest) async throws(PasskeyError) -> UserVerificationOutcome

    public init(
        _ body: @escaping @Sendable (UserVerificationRequest) async throws(PasskeyError) -> UserVerificationOutcome
    ) {
        self.body = body
    }

    public func verifyUser(_ request: UserVerificationRequest) async throws(PasskeyError) -> UserVerificationOutcome {
        try await body(request)
    }
}
