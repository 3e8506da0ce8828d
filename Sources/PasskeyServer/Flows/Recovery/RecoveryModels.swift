import Foundation
import WebAuthn

/// `POST /v1/recoveries`
struct CreateRecoveryRequest: Decodable, Sendable {
    let userId: String
}

struct CreateRecoveryResponse: Encodable, Sendable {
    let recoveryAttemptId: String
    /// Delivered to the person out of band; shown once, stored only as its hash.
    let recoveryToken: String
    let attemptExpiresAt: Date
}

/// `POST /v1/client/recoveries/{id}/registration`
struct RecoveryRegistrationRequest: Decodable, Sendable {
    let recoveryToken: String
}

/// The replacement registration data: what the new device needs to create the passkey, and the creation options
/// that say the same in the WebAuthn JSON shape.
struct RecoveryRegistrationResponse: Encodable, Sendable {
    let recoveryAttemptId: String
    /// Base64url, as in `publicKey.challenge`.
    let challenge: String
    /// Base64url, as in `publicKey.user.id`: the user's WebAuthn user handle.
    let userHandle: String
    let rpId: String
    let userId: String
    /// The passkey must be created and completed before this time (the challenge's expiry).
    let registrationExpiresAt: Date
    let attemptExpiresAt: Date
    /// Sent back with the new credential to `…/complete`.
    let continuationToken: String
    let publicKey: PublicKeyCredentialCreationOptionsJSON
}

/// `POST /v1/client/recoveries/{id}/complete`
struct CompleteRecoveryRequest: Decodable, Sendable {
    /// Decoded with the body, but refused only once the continuation token has been checked: as on the routes whose
    /// token is a bearer, a caller without the token learns nothing from validation.
    let credential: Result<RegistrationResponseJSON, APIError>
    let continuationToken: String
    let name: String?

    private enum CodingKeys: String, CodingKey {
        case credential, continuationToken, name
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        continuationToken = try container.decode(String.self, forKey: .continuationToken)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        do {
            credential = .success(try container.decode(RegistrationResponseJSON.self, forKey: .credential))
        } catch let error as DecodingError {
            credential = .failure(.invalidRequest("The request body is not valid: \(JSONBody.describe(error))."))
        } catch {
            credential = .failure(.invalidRequest("The request body's credential is not valid."))
        }
    }
}

/// `POST /v1/recoveries/{id}/finalize`
struct FinalizeRecoveryResponse: Encodable, Sendable {
    let recoveryAttemptId: String
    let credential: CredentialResponse
    /// Base64url ids of the credentials revoked by `recovery.revoke`.
    let revokedCredentialIds: [String]
}

/// `GET /v1/recoveries/{id}`, and the answer of `…/cancel`.
struct RecoveryStatusResponse: Encodable, Sendable {
    let recoveryAttemptId: String
    let userId: String
    /// `pending` (token not exchanged yet), `exchanged` (replacement registration issued), `registered` (replacement
    /// passkey created, awaiting finalize), `finalized`, `cancelled` or `expired`.
    let status: String
    let createdAt: Date
    let attemptExpiresAt: Date
    let workflowRunId: String?
    /// The identity-verification run's status (`pending`, `approved`, `declined`, `review`), once started.
    let identityVerification: String?
    let faceMatch: String?
    /// True when the simulated provider decided the run: nobody was verified.
    var simulated: Bool? = nil
    /// The replacement passkey, once registered.
    let credential: CredentialResponse?
}
