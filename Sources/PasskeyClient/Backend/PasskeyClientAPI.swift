public import Foundation
public import WebAuthn

/// A typed client for the passkey server's client API (`/v1/client/…`, DESIGN §3), authorised by the flow-scoped
/// client token that the integrator's backend obtained. This is what an app may call.
public struct PasskeyClientAPI: Sendable {
    let requester: APIRequester

    public init(
        serverBaseURL: URL,
        timeout: Duration = .seconds(30),
        transport: any HTTPTransport = URLSessionTransport()
    ) {
        self.requester = APIRequester(baseURL: serverBaseURL, timeout: timeout, transport: transport)
    }

    /// `POST /v1/client/registrations/{id}/options`: the creation options (with `excludeCredentials`).
    public func registrationOptions(
        registrationAttemptId: String,
        clientToken: String
    ) async throws(PasskeyError) -> PublicKeyCredentialCreationOptionsJSON {
        try await requester.send(
            "POST",
            ["v1", "client", "registrations", registrationAttemptId, "options"],
            token: clientToken,
            body: EmptyBody?.none,
            as: PublicKeyOptions<PublicKeyCredentialCreationOptionsJSON>.self
        ).publicKey
    }

    /// `POST /v1/client/registrations/{id}/complete`: stores the credential; returns it as the server keeps it.
    public func completeRegistration(
        registrationAttemptId: String,
        clientToken: String,
        credential: RegistrationResponseJSON,
        name: String? = nil
    ) async throws(PasskeyError) -> RegisteredCredential {
        struct Body: Encodable, Sendable {
            let credential: RegistrationResponseJSON
            let name: String?
        }
        return try await requester.send(
            "POST",
            ["v1", "client", "registrations", registrationAttemptId, "complete"],
            token: clientToken,
            body: Body(credential: credential, name: name),
            as: RegisteredCredential.self
        )
    }

    /// `POST /v1/client/authentications/{id}/options`: the request options (with `allowCredentials` when the
    /// session names a user). `heldCredentialIds`, when the device can list every passkey it holds for the relying
    /// party, narrows `allowCredentials` to those that can sign in, and makes the server refuse a sign-in none of them
    /// can complete before anything is signed (`CREDENTIAL_NOT_FOUND`, `DEMO_ACCOUNT_REQUIRED`).
    public func authenticationOptions(
        sessionId: String,
        clientToken: String,
        heldCredentialIds: [String]? = nil
    ) async throws(PasskeyError) -> PublicKeyCredentialRequestOptionsJSON {
        try await authenticationRequest(
            sessionId: sessionId,
            clientToken: clientToken,
            heldCredentialIds: heldCredentialIds
        ).publicKey
    }

    /// `POST /v1/client/authentications/{id}/complete`: verifies the assertion; returns the result token that the
    /// integrator's backend redeems.
    public func completeAuthentication(
        sessionId: String,
        clientToken: String,
        credential: AuthenticationResponseJSON
    ) async throws(PasskeyError) -> AuthenticationCompletion {
        struct Body: Encodable, Sendable {
            let credential: AuthenticationResponseJSON
        }
        return try await requester.send(
            "POST",
            ["v1", "client", "authentications", sessionId, "complete"],
            token: clientToken,
            body: Body(credential: credential),
            as: AuthenticationCompletion.self
        )
    }
}

/// `{"publicKey": …}`, as the server sends options.
struct PublicKeyOptions<Options: Decodable & Sendable>: Decodable, Sendable {
    let publicKey: Options
}

/// A credential as the server stores it (never its public key).
public struct RegisteredCredential: Sendable, Hashable, Codable {
    public var credentialId: String
    public var userId: String
    public var name: String
    /// `active`, `reserved` (awaiting finalize) or `revoked`.
    public var status: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var aaguid: String?
    public var authenticatorName: String?
    public var backupEligible: Bool?
    public var backupState: Bool?
    /// `synced` or `device-bound`.
    public var kind: String?
    public var transports: [String]?
    public var attestationFormat: String?
    /// With an explicit-finalize attempt (`status` `reserved`): the token the app hands to its backend, which
    /// presents it to finalize or abort the passkey (`pkf_…`). Nil otherwise.
    public var finalizeToken: String?
}

/// What completing a sign-in returns: the token the integrator's backend redeems once — none when the session was
/// handed off to this device (the device that handed it off redeems it).
public struct AuthenticationCompletion: Sendable, Hashable, Codable {
    public var resultToken: String?
    public var expiresAt: Date
}
