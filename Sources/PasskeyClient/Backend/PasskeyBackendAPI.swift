public import Foundation

/// A typed client for the passkey server's backend API (`/v1/…`), authorised by an API key.
///
/// For the integrator's servers, command-line tools and tests only: an API key must never ship inside an app.
/// Apps get their registration attempts and sign-in sessions from their own backend.
public struct PasskeyBackendAPI: Sendable {
    let requester: APIRequester
    let apiKey: String

    public init(
        serverBaseURL: URL,
        apiKey: String,
        timeout: Duration = .seconds(30),
        transport: any HTTPTransport = URLSessionTransport()
    ) {
        self.requester = APIRequester(baseURL: serverBaseURL, timeout: timeout, transport: transport)
        self.apiKey = apiKey
    }

    /// `POST /v1/registrations`: a registration attempt for `userId` (created when new).
    public func createRegistration(
        userId: String,
        userName: String,
        displayName: String? = nil,
        credentialName: String? = nil
    ) async throws(PasskeyError) -> RegistrationAttempt {
        struct Body: Encodable, Sendable {
            let userId: String
            let userName: String
            let displayName: String?
            let credentialName: String?
        }
        return try await requester.send(
            "POST",
            ["v1", "registrations"],
            token: apiKey,
            body: Body(userId: userId, userName: userName, displayName: displayName, credentialName: credentialName),
            as: RegistrationAttempt.self
        )
    }

    /// `POST /v1/authentications`: a sign-in session, for `userId` or (nil) usernameless.
    public func createAuthentication(
        userId: String?,
        mode: String = "standard",
        action: String? = nil
    ) async throws(PasskeyError) -> AuthenticationSession {
        struct Body: Encodable, Sendable {
            let userId: String?
            let mode: String
            let action: String?
        }
        return try await requester.send(
            "POST",
            ["v1", "authentications"],
            token: apiKey,
            body: Body(userId: userId, mode: mode, action: action),
            as: AuthenticationSession.self
        )
    }

    /// `POST /v1/authentications/{id}/redeem`: who signed in (once per result token).
    public func redeemAuthentication(
        sessionId: String,
        resultToken: String
    ) async throws(PasskeyError) -> RedeemedAuthentication {
        struct Body: Encodable, Sendable {
            let resultToken: String
        }
        return try await requester.send(
            "POST",
            ["v1", "authentications", sessionId, "redeem"],
            token: apiKey,
            body: Body(resultToken: resultToken),
            as: RedeemedAuthentication.self
        )
    }
}

/// `POST /v1/registrations`' answer: what the app needs to enroll.
public struct RegistrationAttempt: Sendable, Hashable, Codable {
    public var registrationAttemptId: String
    public var clientToken: String
    public var expiresAt: Date
}

/// `POST /v1/authentications`' answer: what the app needs to sign in.
public struct AuthenticationSession: Sendable, Hashable, Codable {
    /// The session id (the name follows the mobile SDKs of this field).
    public var biometricPasskeySessionId: String
    public var clientToken: String
    public var expiresAt: Date
}

/// A redeemed sign-in: who signed in, with which passkey, and how.
public struct RedeemedAuthentication: Sendable, Hashable, Codable {
    public var userId: String
    public var credentialId: String
    public var userVerified: Bool
    public var backupEligible: Bool
    public var backupState: Bool
    public var mode: String
    public var action: String?
    public var completedAt: Date
}
