import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import WebAuthn

// MARK: Request bodies

/// `POST /v1/registrations`
struct NewRegistration: Encodable, Sendable {
    var userId: String
    var userName: String
    var displayName: String?
    var credentialName: String?
    var finalize: String?
    var identityVerification: String?

    init(
        userId: String,
        userName: String? = nil,
        displayName: String? = nil,
        credentialName: String? = nil,
        finalize: String? = nil
    ) {
        self.userId = userId
        self.userName = userName ?? "\(userId)@example.com"
        self.displayName = displayName
        self.credentialName = credentialName
        self.finalize = finalize
    }
}

/// `POST /v1/authentications`
struct NewAuthentication: Encodable, Sendable {
    var userId: String?
    var mode: String?
    var action: String?
}

struct CompleteRegistration: Encodable, Sendable {
    let credential: RegistrationResponseJSON
    var name: String?
}

struct CompleteAuthentication: Encodable, Sendable {
    let credential: AuthenticationResponseJSON
}

struct Redeem: Encodable, Sendable {
    let resultToken: String
}

struct Rename: Encodable, Sendable {
    let name: String
}

// MARK: Response bodies

struct RegistrationAttempt: Decodable, Sendable {
    let registrationAttemptId: String
    let clientToken: String
    let expiresAt: String
}

struct AuthenticationSession: Decodable, Sendable {
    let biometricPasskeySessionId: String
    let clientToken: String
    let expiresAt: String
}

struct Options<PublicKey: Decodable & Sendable>: Decodable, Sendable {
    let publicKey: PublicKey
}

struct CredentialView: Decodable, Sendable, Equatable {
    let credentialId: String
    let userId: String
    let name: String
    let status: String
    let createdAt: String
    let lastUsedAt: String?
    let aaguid: String
    let authenticatorName: String?
    let backupEligible: Bool
    let backupState: Bool
    let kind: String
    let transports: [String]
    let attestationFormat: String
    let attestationType: String
    let attestationTrusted: Bool
    let algorithm: String
}

struct CredentialListView: Decodable, Sendable {
    let userId: String
    let credentials: [CredentialView]
}

struct RegistrationStatusView: Decodable, Sendable {
    let registrationAttemptId: String
    let userId: String
    let status: String
    let finalize: String
    let credential: CredentialView?
    var reason: String? = nil
}

struct SignInCompletion: Decodable, Sendable {
    let resultToken: String
    let expiresAt: String
}

struct SignInResult: Decodable, Sendable, Equatable {
    let userId: String
    let credentialId: String
    let userVerified: Bool
    let backupEligible: Bool
    let backupState: Bool
    let mode: String
    let action: String?
    let completedAt: String
}

struct AuditPageView: Decodable, Sendable {
    struct Event: Decodable, Sendable {
        let sequence: Int64
        let time: String
        let actor: String
        let action: String
        let userId: String?
        let subject: String?
        let requestId: String?
        let details: [String: String]
        let hash: String?
        let previousHash: String?
    }

    let events: [Event]
    let nextCursor: String?
}

struct UserPageView: Decodable, Sendable {
    struct User: Decodable, Sendable, Equatable {
        let userId: String
        let userName: String
        let displayName: String
        let createdAt: String
        let activeCredentials: Int
    }

    let users: [User]
    let nextCursor: String?
}

// MARK: Paths

enum Path {
    static func registration(_ id: String) -> String { "/v1/registrations/\(id)" }
    static func registrationOptions(_ id: String) -> String { "/v1/client/registrations/\(id)/options" }
    static func registrationComplete(_ id: String) -> String { "/v1/client/registrations/\(id)/complete" }
    static func authenticationOptions(_ id: String) -> String { "/v1/client/authentications/\(id)/options" }
    static func authenticationComplete(_ id: String) -> String { "/v1/client/authentications/\(id)/complete" }
    static func redeem(_ id: String) -> String { "/v1/authentications/\(id)/redeem" }
    static func credential(_ id: String) -> String { "/v1/credentials/\(id)" }
    static func userCredentials(_ userID: String) -> String { "/v1/users/\(userID)/credentials" }
}

// MARK: Flows

extension API {
    func createRegistration(_ request: NewRegistration) async throws -> RegistrationAttempt {
        try await backend(.post, "/v1/registrations", body: request).expect(.created, RegistrationAttempt.self)
    }

    func registrationOptions(_ attempt: RegistrationAttempt) async throws -> PublicKeyCredentialCreationOptionsJSON {
        try await client(.post, Path.registrationOptions(attempt.registrationAttemptId), token: attempt.clientToken)
            .expect(.ok, Options<PublicKeyCredentialCreationOptionsJSON>.self).publicKey
    }

    func completeRegistration(
        _ attempt: RegistrationAttempt,
        _ credential: RegistrationResponseJSON,
        name: String? = nil
    ) async throws -> APIResponse {
        try await client(
            .post,
            Path.registrationComplete(attempt.registrationAttemptId),
            token: attempt.clientToken,
            body: CompleteRegistration(credential: credential, name: name)
        )
    }

    /// The phone's part of a registration: adopts the user handle of the options (as a platform authenticator
    /// stores it with the passkey) and answers with the server's origin and RP ID.
    func registrationResponse(
        _ options: PublicKeyCredentialCreationOptionsJSON,
        authenticator: inout TestAuthenticator,
        origin: String? = nil,
        flags: AuthenticatorDataFlags = [.userPresent, .userVerified]
    ) throws -> RegistrationResponseJSON {
        authenticator.userHandle = options.user.id.bytes
        return try authenticator.registrationResponse(
            challenge: options.challenge.bytes,
            origin: origin ?? server.origin,
            rpID: server.rpID,
            flags: flags
        )
    }

    /// A whole registration: create, options, the authenticator's response, complete (201 expected).
    @discardableResult
    func enroll(
        _ request: NewRegistration,
        authenticator: inout TestAuthenticator,
        name: String? = nil,
        origin: String? = nil
    ) async throws -> CredentialView {
        let attempt = try await createRegistration(request)
        let options = try await registrationOptions(attempt)
        let response = try registrationResponse(options, authenticator: &authenticator, origin: origin)
        return try await completeRegistration(attempt, response, name: name).expect(.created, CredentialView.self)
    }

    @discardableResult
    func enroll(
        _ userID: String,
        authenticator: inout TestAuthenticator,
        name: String? = nil
    ) async throws -> CredentialView {
        try await enroll(NewRegistration(userId: userID), authenticator: &authenticator, name: name)
    }

    func startSignIn(userID: String?, mode: String? = nil, action: String? = nil) async throws -> AuthenticationSession
    {
        try await backend(
            .post,
            "/v1/authentications",
            body: NewAuthentication(userId: userID, mode: mode, action: action)
        )
        .expect(.created, AuthenticationSession.self)
    }

    func authenticationOptions(_ session: AuthenticationSession) async throws -> PublicKeyCredentialRequestOptionsJSON {
        try await client(
            .post,
            Path.authenticationOptions(session.biometricPasskeySessionId),
            token: session.clientToken
        )
        .expect(.ok, Options<PublicKeyCredentialRequestOptionsJSON>.self).publicKey
    }

    func assertion(
        _ options: PublicKeyCredentialRequestOptionsJSON,
        authenticator: inout TestAuthenticator,
        origin: String? = nil,
        rpID: String? = nil,
        flags: AuthenticatorDataFlags = [.userPresent, .userVerified]
    ) -> AuthenticationResponseJSON {
        authenticator.authenticationResponse(
            challenge: options.challenge.bytes,
            origin: origin ?? server.origin,
            rpID: rpID ?? server.rpID,
            flags: flags
        )
    }

    func completeSignIn(
        _ session: AuthenticationSession,
        _ credential: AuthenticationResponseJSON
    ) async throws -> APIResponse {
        try await client(
            .post,
            Path.authenticationComplete(session.biometricPasskeySessionId),
            token: session.clientToken,
            body: CompleteAuthentication(credential: credential)
        )
    }

    func redeem(_ session: AuthenticationSession, _ resultToken: String) async throws -> APIResponse {
        try await backend(.post, Path.redeem(session.biometricPasskeySessionId), body: Redeem(resultToken: resultToken))
    }

    /// A whole sign-in: create the session, options, the assertion, complete, redeem (each step must succeed).
    func signIn(
        userID: String?,
        authenticator: inout TestAuthenticator,
        mode: String? = nil,
        action: String? = nil
    ) async throws -> SignInResult {
        let session = try await startSignIn(userID: userID, mode: mode, action: action)
        let options = try await authenticationOptions(session)
        let completion = try await completeSignIn(session, assertion(options, authenticator: &authenticator)).expect(
            .ok,
            SignInCompletion.self
        )
        return try await redeem(session, completion.resultToken).expect(.ok, SignInResult.self)
    }

    /// Options of a new session, ready for an assertion.
    func signInSession(
        userID: String?,
        mode: String? = nil
    ) async throws -> (AuthenticationSession, PublicKeyCredentialRequestOptionsJSON) {
        let session = try await startSignIn(userID: userID, mode: mode)
        return (session, try await authenticationOptions(session))
    }

    func credentials(of userID: String) async throws -> [CredentialView] {
        try await backend(.get, Path.userCredentials(userID)).expect(.ok, CredentialListView.self).credentials
    }

    func auditEvents(query: String = "") async throws -> AuditPageView {
        try await backend(.get, "/v1/audit-events\(query)").expect(.ok, AuditPageView.self)
    }

    /// `GET /v1/users` with `query`, a query string such as `?limit=3`.
    func users(query: String = "") async throws -> UserPageView {
        try await backend(.get, "/v1/users\(query)").expect(.ok, UserPageView.self)
    }
}

extension TestAuthenticator {
    /// The credential id as the API shows it.
    var credentialIDText: String { Base64URL.encode(credentialID) }
}
