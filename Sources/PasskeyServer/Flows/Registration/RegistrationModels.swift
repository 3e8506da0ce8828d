import Foundation
import WebAuthn

/// `POST /v1/registrations`
struct CreateRegistrationRequest: Decodable, Sendable {
    let userId: String
    let userName: String
    let displayName: String?
    /// `none` (default) or `required`.
    let identityVerification: String?
    let credentialName: String?
    /// `automatic` (default) or `explicit` (two-phase commit: finalize or abort through the backend API).
    let finalize: String?
    /// A run of another flow cannot be brought along: refused with `WORKFLOW_RUN_REUSE_FORBIDDEN`.
    let workflowRunId: String?
}

struct CreateRegistrationResponse: Encodable, Sendable {
    let registrationAttemptId: String
    let clientToken: String
    let expiresAt: Date
    /// With `identityVerification: required`: the run to complete before the passkey can be created.
    let workflowRunId: String?
    let idvToken: String?
}

/// `POST /v1/client/registrations/{id}/complete`
struct CompleteRegistrationRequest: Decodable, Sendable {
    let credential: RegistrationResponseJSON
    let name: String?
}

/// `GET /v1/registrations/{id}`
struct RegistrationStatusResponse: Encodable, Sendable {
    let registrationAttemptId: String
    let userId: String
    let status: String
    let finalize: String
    let createdAt: Date
    let expiresAt: Date
    let credential: CredentialResponse?
    /// Why an explicit-finalize attempt was aborted, when the backend said (`IDP_COMMIT_FAILED`).
    var reason: String? = nil
}

/// `POST /v1/registrations/{id}/finalize` and `…/abort`
struct SettleRegistrationRequest: Decodable, Sendable {
    /// The token `complete` returned for the attempt (required).
    let finalizeToken: String?
    /// Abort only: why, when the backend's own identity provider refused the passkey (``AbortReason``).
    let reason: String?
    /// Whether the body has a `reason` key at all: finalize refuses one, even `null`.
    let hasReasonKey: Bool

    /// An empty body: no token (refused with `FINALIZE_TOKEN_INVALID` once the attempt has completed).
    static let none = Self(finalizeToken: nil, reason: nil, hasReasonKey: false)

    init(finalizeToken: String?, reason: String?, hasReasonKey: Bool) {
        self.finalizeToken = finalizeToken
        self.reason = reason
        self.hasReasonKey = hasReasonKey
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        finalizeToken = try container.decodeIfPresent(String.self, forKey: .finalizeToken)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        hasReasonKey = container.contains(.reason)
    }

    private enum CodingKeys: String, CodingKey { case finalizeToken, reason }
}

/// The reasons a backend may give when it aborts an explicit-finalize attempt.
enum AbortReason {
    /// The backend's identity provider refused the new passkey.
    static let idpCommitFailed = "IDP_COMMIT_FAILED"
    static let all: Set<String> = [idpCommitFailed]
}

/// What a registration flow keeps in its payload.
struct RegistrationState: Codable, Sendable {
    var userName: String
    var displayName: String
    var credentialName: String?
    var explicitFinalize: Bool
    var credentialID: String?
    /// A sign-up: the attempt may only give the user their first passkey, so it can never add one to an account
    /// that someone else completed while it was pending.
    var newAccount: Bool?
    /// Identity verification must approve the attempt before its options are given out.
    var identityVerification: Bool?
    /// A recovery's replacement: how many live credentials the user may have with it (the old ones are revoked
    /// when the recovery is finalized), and the identity-verification run of the recovery.
    var maximumActive: Int?
    var workflowRunID: String?
    /// The passkey opens the operator console: enrolled there, by an operator in the console or a break-glass.
    var consolePasskey: Bool?
    /// An explicit-finalize attempt that completed: the SHA-256 (base64url) of the finalize token `complete` returned.
    var finalizeTokenHash: String?
    /// Why the backend aborted it (``AbortReason``), when it said.
    var abortReason: String?
}

/// An options response: `{"publicKey": …}`, as `PublicKeyCredential.parse…OptionsFromJSON` takes it.
struct PublicKeyOptionsResponse<Options: Encodable & Sendable>: Encodable, Sendable {
    let publicKey: Options
    /// A step-up's transaction, whose digest ends the challenge: the client shows the text and checks the digest.
    var transaction: Transaction? = nil
}
