import Foundation
import PasskeyStorage
import WebAuthn

/// How a sign-in runs: `standard`, or `stepUp` — a user who is signed in already confirms a risky action, with
/// user verification always, and optionally a transaction text bound into the challenge and identity verification.
enum SignInMode: String, Codable, Sendable {
    case standard
    case stepUp
}

/// `POST /v1/authentications`
struct CreateAuthenticationRequest: Decodable, Sendable {
    /// Absent: usernameless sign-in with a discoverable credential.
    let userId: String?
    /// `standard` (default) or `stepUp`.
    let mode: String?
    /// What the sign-in is for, echoed at redemption (such as `login`, `payment.approve`).
    let action: String?
    /// Step-up only: the text of what the user approves; its digest becomes part of the challenge.
    let transaction: TransactionRequest?
    /// Step-up only: `none` (default) or `required`.
    let identityVerification: String?
    /// A run of another flow cannot be brought along: refused with `WORKFLOW_RUN_REUSE_FORBIDDEN`.
    let workflowRunId: String?

    init(
        userId: String?,
        mode: String?,
        action: String?,
        transaction: TransactionRequest? = nil,
        identityVerification: String? = nil,
        workflowRunId: String? = nil
    ) {
        self.userId = userId
        self.mode = mode
        self.action = action
        self.transaction = transaction
        self.identityVerification = identityVerification
        self.workflowRunId = workflowRunId
    }
}

struct CreateAuthenticationResponse: Encodable, Sendable {
    let biometricPasskeySessionId: String
    let clientToken: String
    let expiresAt: Date
    let transaction: Transaction?
    /// `required` when the client must verify the person's identity first (`…/idv/start`).
    let identityVerification: String?
}

/// `POST /v1/client/authentications/{id}/complete`
struct CompleteAuthenticationRequest: Decodable, Sendable {
    let credential: AuthenticationResponseJSON
}

struct CompleteAuthenticationResponse: Encodable, Sendable {
    /// Absent when the session was handed off to this device: the device that handed it off redeems it, with the
    /// handoff's poll token.
    let resultToken: String?
    let expiresAt: Date
}

/// `POST /v1/client/authentications/{id}/options`, whose body is optional: a device that can list every passkey it
/// holds for this relying party may name them, and the options then allow only those of them that can complete this
/// sign-in — or the sign-in is refused before the device is asked to sign (`DEMO_ACCOUNT_REQUIRED` when they belong
/// to accounts the demo does not sign in; `CREDENTIAL_NOT_FOUND` when none is registered here for it).
struct AuthenticationOptionsRequest: Decodable, Sendable {
    /// The base64url ids of the passkeys the device holds; at most ``limit``.
    var credentialIds: [String]?

    static let none = Self(credentialIds: nil)
    static let limit = 64
}

/// `POST /v1/authentications/{id}/redeem`
struct RedeemRequest: Decodable, Sendable {
    let resultToken: String
    /// `true`: the answer carries a token session for the user (``IssuedSession``). Absent or `false`: no session.
    var issueSession: Bool? = nil
}

/// What an authentication flow keeps in its payload, and what redemption returns.
struct AuthenticationState: Codable, Sendable {
    var mode: SignInMode
    var action: String?
    var transaction: Transaction?
    var identityVerification: Bool?
    /// A step-up's allow-list, as its options gave it out (base64url ids).
    var allowedCredentialIDs: [String]?
    /// The handoff that took the session over to a phone (DESIGN §3 flow 4), if one did.
    var crossPlatformSessionId: String?
    var result: AuthenticationResult?

    /// The key of the identity-verification run this session needs: a handed-off session's is the phone's, started
    /// for the handoff, so a run the first device started before the handoff neither counts nor stands in the
    /// phone's way.
    func workflowRunKey(_ flow: FlowRecord) -> String { crossPlatformSessionId ?? flow.id }

    /// User verification is required whatever the policy (the operator console's sign-in).
    var userVerificationRequired: Bool?
    /// Only the demo's own accounts may complete it (the demo page's sign-in): another account's passkey is refused
    /// at the completion, so a phone never approves a sign-in the demo would then refuse.
    var demoAccountsOnly: Bool?
    /// Why the server refused the completion (an error code), for the first device to say.
    var refusal: String?

    /// What this sign-in asks of user verification: `required` for a step-up and the console, else the policy's.
    func userVerification(policy: UserVerificationRequirement) -> UserVerificationRequirement {
        mode == .stepUp || userVerificationRequired == true ? .required : policy
    }
}

struct AuthenticationResult: Codable, Sendable, Equatable {
    /// The identity-verification run a step-up required, and its decision.
    struct IdentityVerificationOutcome: Codable, Sendable, Equatable {
        let workflowRunId: String
        let decision: String
        /// The provider's comparison of the person's face with their document, when it made one.
        var faceMatch: String? = nil
        /// True when the simulated provider decided the run: nobody was verified.
        var simulated: Bool? = nil
    }

    /// What the sign-in proves: identity verification counts only when its run was approved and no face match it
    /// made failed.
    static func assurance(userVerified: Bool, run: WorkflowRunRecord?) -> String {
        guard userVerified else { return "passkey" }
        guard let run, run.status == .approved, run.faceMatch != .fail else { return "passkey+uv" }
        return "passkey+uv+idv"
    }

    let userId: String
    let credentialId: String
    let userVerified: Bool
    let backupEligible: Bool
    let backupState: Bool
    let mode: SignInMode
    let action: String?
    let completedAt: Date
    let transaction: Transaction?
    /// `passkey`, `passkey+uv` (the authenticator verified the user) or `passkey+uv+idv` (and identity verification
    /// approved the person for this session, with no failed face match).
    let assurance: String?
    let identityVerification: IdentityVerificationOutcome?
    /// The token session of a redemption that asked for one (`issueSession`): only in that answer, never stored with
    /// the flow.
    var session: IssuedSession? = nil
}
