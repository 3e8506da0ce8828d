import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// `POST /v1/recoveries`
struct RecoveryStart: Decodable, Sendable {
    let recoveryAttemptId: String
    let recoveryToken: String
    let attemptExpiresAt: String
}

/// `POST /v1/client/recoveries/{id}/registration`
struct RecoveryRegistrationView: Decodable, Sendable {
    let recoveryAttemptId: String
    let challenge: String
    let userHandle: String
    let rpId: String
    let userId: String
    let registrationExpiresAt: String
    let attemptExpiresAt: String
    let continuationToken: String
    let publicKey: PublicKeyCredentialCreationOptionsJSON
}

struct RecoveryFinalizeView: Decodable, Sendable {
    let recoveryAttemptId: String
    let credential: CredentialView
    let revokedCredentialIds: [String]
}

struct RecoveryStatusView: Decodable, Sendable {
    let recoveryAttemptId: String
    let userId: String
    let status: String
    let workflowRunId: String?
    let identityVerification: String?
    let faceMatch: String?
    let credential: CredentialView?
}

struct RecoveryTokenBody: Encodable, Sendable {
    let recoveryToken: String
}

struct CompleteRecoveryBody: Encodable, Sendable {
    let credential: RegistrationResponseJSON
    let continuationToken: String
}

enum Recovery {
    /// The simulated identity-verification provider, which recovery needs.
    static func simulated(_ configuration: inout ServerConfiguration) {
        configuration.identityVerification.provider = .simulated
    }

    static func attempt(_ id: String) -> String { "/v1/recoveries/\(id)" }
    static func identityVerification(_ id: String) -> String { "/biometric-passkey/mobile/recovery/\(id)/idv/start" }
    static func registration(_ id: String) -> String { "/v1/client/recoveries/\(id)/registration" }
    static func complete(_ id: String) -> String { "/v1/client/recoveries/\(id)/complete" }
}

extension API {
    func startRecovery(userID: String) async throws -> APIResponse {
        try await backend(.post, "/v1/recoveries", json: #"{"userId": "\#(userID)"}"#)
    }

    /// The new device starts identity verification with the recovery token; returns the run's id.
    func startRecoveryIdentityVerification(_ start: RecoveryStart) async throws -> String {
        let started = try await client(
            .post,
            Recovery.identityVerification(start.recoveryAttemptId),
            token: start.recoveryToken
        )
        return try #require(try started.json().object?["workflowRunId"]?.string, "\(started)")
    }

    /// The simulated provider's decision, with a face match when given.
    func decide(run: String, _ decision: String, faceMatch: String?) async throws -> APIResponse {
        let match = faceMatch.map { #", "faceMatch": "\#($0)""# } ?? ""
        return try await backend(
            .post,
            "/v1/identity-verification/runs/\(run)/decision",
            json: #"{"decision": "\#(decision)"\#(match)}"#
        )
    }

    func recoveryRegistration(_ id: String, token: String) async throws -> APIResponse {
        try await send(.post, Recovery.registration(id), body: JSON.encode(RecoveryTokenBody(recoveryToken: token)))
    }

    func completeRecovery(
        _ id: String,
        _ credential: RegistrationResponseJSON,
        continuationToken: String
    ) async throws -> APIResponse {
        try await send(
            .post,
            Recovery.complete(id),
            body: JSON.encode(CompleteRecoveryBody(credential: credential, continuationToken: continuationToken))
        )
    }

    /// A recovery of `userID` up to its replacement registration data: started, the person verified (approved,
    /// face matched), the token exchanged.
    func verifiedRecovery(userID: String) async throws -> (RecoveryStart, RecoveryRegistrationView) {
        let start = try await startRecovery(userID: userID).expect(.created, RecoveryStart.self)
        let run = try await startRecoveryIdentityVerification(start)
        _ = try await decide(run: run, "approved", faceMatch: "pass").expect(.ok, JSONValue.self)
        let registration = try await recoveryRegistration(start.recoveryAttemptId, token: start.recoveryToken)
            .expect(.ok, RecoveryRegistrationView.self)
        return (start, registration)
    }

    /// A whole recovery up to the reserved replacement, created by `authenticator`.
    func registeredRecovery(
        userID: String,
        authenticator: inout TestAuthenticator
    ) async throws -> (RecoveryStart, CredentialView) {
        let (start, registration) = try await verifiedRecovery(userID: userID)
        let response = try registrationResponse(registration.publicKey, authenticator: &authenticator)
        let credential = try await completeRecovery(
            start.recoveryAttemptId,
            response,
            continuationToken: registration.continuationToken
        ).expect(.created, CredentialView.self)
        return (start, credential)
    }
}
