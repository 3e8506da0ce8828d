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
        self.requester = APIRequester(
            baseURL: serverBaseURL,
            timeout: timeout,
            transport: transport,
            tokenIsAPIKey: true
        )
        self.apiKey = apiKey
    }

    /// `POST /v1/registrations`: a registration attempt for `userId` (created when new). With
    /// `requireIdentityVerification`, the attempt carries a workflow run that must be approved before the passkey
    /// can be enrolled (``RegistrationAttempt/workflowRunId``, ``RegistrationAttempt/idvToken``). With
    /// `explicitFinalize`, the passkey is only reserved when the app enrolls it, until this backend finalizes or
    /// aborts it with the finalize token the app hands over (``RegisteredCredential/finalizeToken``).
    public func createRegistration(
        userId: String,
        userName: String,
        displayName: String? = nil,
        credentialName: String? = nil,
        requireIdentityVerification: Bool = false,
        explicitFinalize: Bool = false
    ) async throws(PasskeyError) -> RegistrationAttempt {
        struct Body: Encodable, Sendable {
            let userId: String
            let userName: String
            let displayName: String?
            let credentialName: String?
            let identityVerification: String?
            let finalize: String?
        }
        return try await requester.send(
            "POST",
            ["v1", "registrations"],
            token: apiKey,
            body: Body(
                userId: userId,
                userName: userName,
                displayName: displayName,
                credentialName: credentialName,
                identityVerification: requireIdentityVerification ? "required" : nil,
                finalize: explicitFinalize ? "explicit" : nil
            ),
            as: RegistrationAttempt.self
        )
    }

    /// `POST /v1/authentications`: a sign-in session, for `userId` or (nil) usernameless. A step-up session
    /// (`mode: "stepUp"`) may bind a `transaction` — the text the user approves, whose digest the server puts into
    /// the challenge — and may require identity verification before the passkey is used.
    public func createAuthentication(
        userId: String?,
        mode: String = "standard",
        action: String? = nil,
        transaction: String? = nil,
        requireIdentityVerification: Bool = false
    ) async throws(PasskeyError) -> AuthenticationSession {
        struct Transaction: Encodable, Sendable {
            let text: String
        }
        struct Body: Encodable, Sendable {
            let userId: String?
            let mode: String
            let action: String?
            let transaction: Transaction?
            let identityVerification: String?
        }
        return try await requester.send(
            "POST",
            ["v1", "authentications"],
            token: apiKey,
            body: Body(
                userId: userId,
                mode: mode,
                action: action,
                transaction: transaction.map(Transaction.init(text:)),
                identityVerification: requireIdentityVerification ? "required" : nil
            ),
            as: AuthenticationSession.self
        )
    }

    /// `POST /v1/authentications/{id}/redeem`: who signed in (once per result token). For a session handed off to
    /// a phone, the result token is the handoff's poll token (the phone's result has none: `INVALID_INPUT`). With
    /// `issueSession`, the answer carries a token session for the user (``RedeemedAuthentication/session``), to hand
    /// to the app (``TokenSession``).
    public func redeemAuthentication(
        sessionId: String,
        resultToken: String?,
        issueSession: Bool = false
    ) async throws(PasskeyError) -> RedeemedAuthentication {
        struct Body: Encodable, Sendable {
            let resultToken: String
            let issueSession: Bool?
        }
        guard let resultToken else {
            throw PasskeyError(
                .invalidInput,
                "This sign-in has no result token: it was approved for another device, which redeems it with the handoff's poll token."
            )
        }
        return try await requester.send(
            "POST",
            ["v1", "authentications", sessionId, "redeem"],
            token: apiKey,
            body: Body(resultToken: resultToken, issueSession: issueSession ? true : nil),
            as: RedeemedAuthentication.self
        )
    }
}

/// `POST /v1/registrations`' answer: what the app needs to enroll.
public struct RegistrationAttempt: Sendable, Hashable, Codable {
    public var registrationAttemptId: String
    public var clientToken: String
    public var expiresAt: Date
    /// The identity verification run to approve before enrolling (when it was required).
    public var workflowRunId: String?
    /// The token the identity verification vendor's capture starts with (when it was required).
    public var idvToken: String?
}

/// `POST /v1/authentications`' answer: what the app needs to sign in.
public struct AuthenticationSession: Sendable, Hashable, Codable {
    /// The session id (the name follows the mobile SDKs of this field).
    public var biometricPasskeySessionId: String
    public var clientToken: String
    public var expiresAt: Date
    /// The transaction the session binds into its challenge, with its digest.
    public var transaction: TransactionDetails?
    /// `required` when identity verification must be approved before the passkey is used.
    public var identityVerification: String?

    /// Whether the session requires identity verification (pass it to ``AuthenticationInput/StepUp``).
    public var requiresIdentityVerification: Bool { identityVerification == "required" }
}

/// A redeemed sign-in: who signed in, with which passkey, and how.
public struct RedeemedAuthentication: Sendable, Hashable, Codable {
    /// How a redeemed identity verification ended.
    public struct IdentityVerification: Sendable, Hashable, Codable {
        public var workflowRunId: String
        public var decision: String
    }

    public var userId: String
    public var credentialId: String
    public var userVerified: Bool
    public var backupEligible: Bool
    public var backupState: Bool
    public var mode: String
    public var action: String?
    public var completedAt: Date
    /// The transaction the user approved and signed (step-up sessions that bound one).
    public var transaction: TransactionDetails?
    /// What the sign-in proves: `passkey`, `passkey+uv` (with user verification) or `passkey+uv+idv` (and an
    /// approved identity verification). Nil from servers older than this field.
    public var assurance: String?
    /// The identity verification of the session, when it required one.
    public var identityVerification: IdentityVerification?
    /// The token session, when the redemption asked for one (`issueSession`).
    public var session: SessionTokens?
}
