public import WebAuthn

/// Something that holds passkeys and runs the two WebAuthn ceremonies for a client: the
/// ``SoftwareAuthenticator`` (Linux, servers, tests), the platform passkeys of Apple devices, and device-bound
/// Secure Enclave keys. Flows call it through this protocol only, so apps and tests can put in their own.
///
/// Requests arrive checked (``WebAuthnClient`` validated the options as a browser does). An authenticator must
/// honour what they ask: `excludeCredentials` (throw `PASSKEY_ALREADY_EXISTS`), `allowCredentials` (throw
/// `PASSKEY_NOT_FOUND` when none is here), `userVerification` (throw `USER_VERIFICATION_FAILED` when `required`
/// cannot be met) and `residentKey`.
public protocol Authenticator: Sendable {
    /// Whether this authenticator can run ceremonies on this device now.
    func isSupported() async -> Bool

    /// Creates a credential (`navigator.credentials.create()`), returning the Level 3 registration response.
    func makeCredential(_ request: CredentialCreationRequest) async throws(PasskeyError) -> RegistrationResponseJSON

    /// Signs an assertion (`navigator.credentials.get()`), returning the Level 3 authentication response.
    func getAssertion(_ request: CredentialAssertionRequest) async throws(PasskeyError) -> AuthenticationResponseJSON

    /// The passkeys this authenticator holds for `rpDomain` (all of them when nil), as far as it can list them.
    func credentials(rpDomain: String?) async throws(PasskeyError) -> [Credential]

    /// The ids of every passkey this authenticator holds that a page of `originHost` may use (an RP ID equal to the
    /// host or a domain it ends in), or nil when it cannot list them all — the default, and the truth for passkeys a
    /// system syncs. A sign-in sends them with its options request, so the server can refuse one that none of them
    /// can complete before anything is signed.
    func heldCredentialIDs(originHost: String) async throws(PasskeyError) -> [String]?

    /// Deletes a passkey on this device only (the server keeps it until revoked through the backend API).
    /// - Throws: `PASSKEY_NOT_FOUND` when there is none with this id; `CREDENTIAL_DELETE_FORBIDDEN` when this
    ///   authenticator cannot delete (platform passkeys live in the system's password manager).
    func deleteCredential(id: String) async throws(PasskeyError)
}

extension Authenticator {
    public func heldCredentialIDs(originHost: String) async throws(PasskeyError) -> [String]? { nil }
}

/// A registration request: the relying party's creation options and where the ceremony runs.
public struct CredentialCreationRequest: Sendable, Hashable {
    public var options: PublicKeyCredentialCreationOptionsJSON
    /// The origin reported in `clientDataJSON`.
    public var origin: String
    /// The RP ID the credential is scoped to (`options.rp.id`, or the origin's host when the options leave it out).
    public var rpID: String
    /// The integrator's user id, remembered with the passkey on this device (for ``PasskeyClient/shouldPromptToCreatePasskey(userId:)``).
    public var userId: String?

    public init(options: PublicKeyCredentialCreationOptionsJSON, origin: String, rpID: String, userId: String? = nil) {
        self.options = options
        self.origin = origin
        self.rpID = rpID
        self.userId = userId
    }
}

/// An authentication request: the relying party's request options and where the ceremony runs.
public struct CredentialAssertionRequest: Sendable, Hashable {
    public var options: PublicKeyCredentialRequestOptionsJSON
    public var origin: String
    /// The RP ID (`options.rpId`, or the origin's host when the options leave it out).
    public var rpID: String

    public init(options: PublicKeyCredentialRequestOptionsJSON, origin: String, rpID: String) {
        self.options = options
        self.origin = origin
        self.rpID = rpID
    }
}
