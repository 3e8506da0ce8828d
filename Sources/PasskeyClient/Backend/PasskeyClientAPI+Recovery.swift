import Foundation
public import WebAuthn

extension PasskeyClientAPI {
    /// `POST /biometric-passkey/mobile/recovery/{id}/idv/start`: starts the recovery's identity verification, with
    /// the recovery token; once per recovery (again: `IDV_ALREADY_STARTED`).
    public func startRecoveryIdentityVerification(
        recoveryAttemptId: String,
        recoveryToken: String
    ) async throws(PasskeyError) -> IdentityVerificationStart {
        try await requester.send(
            "POST",
            ["biometric-passkey", "mobile", "recovery", recoveryAttemptId, "idv", "start"],
            token: recoveryToken,
            body: EmptyBody(),
            as: IdentityVerificationStart.self
        )
    }

    /// `POST /v1/client/recoveries/{id}/registration`: exchanges the recovery token — once — for the replacement
    /// registration data, after the person's identity was verified.
    public func recoveryRegistration(
        recoveryAttemptId: String,
        recoveryToken: String
    ) async throws(PasskeyError) -> RecoveryRegistrationData {
        struct Body: Encodable, Sendable {
            let recoveryToken: String
        }
        // The route reads the token from the body; the bearer header it also carries is not looked at.
        return try await requester.send(
            "POST",
            ["v1", "client", "recoveries", recoveryAttemptId, "registration"],
            token: recoveryToken,
            body: Body(recoveryToken: recoveryToken),
            as: RecoveryRegistrationData.self
        )
    }

    /// `POST /v1/client/recoveries/{id}/complete`: verifies the replacement passkey, which stays reserved until
    /// the backend finalizes the recovery.
    public func completeRecovery(
        recoveryAttemptId: String,
        continuationToken: String,
        credential: RegistrationResponseJSON,
        name: String? = nil
    ) async throws(PasskeyError) -> RegisteredCredential {
        struct Body: Encodable, Sendable {
            let credential: RegistrationResponseJSON
            let continuationToken: String
            let name: String?
        }
        return try await requester.send(
            "POST",
            ["v1", "client", "recoveries", recoveryAttemptId, "complete"],
            token: continuationToken,
            body: Body(credential: credential, continuationToken: continuationToken, name: name),
            as: RegisteredCredential.self
        )
    }
}

/// The ``RecoveryRegistrationProvider`` of an app that talks to the passkey server directly: it exchanges the
/// recovery token at the server's client API for the registration data.
public struct ServerRecoveryRegistrationProvider: RecoveryRegistrationProvider {
    public let api: PasskeyClientAPI

    public init(api: PasskeyClientAPI) { self.api = api }

    public func registrationData(for input: RecoveryInput) async throws(PasskeyError) -> RecoveryRegistrationData {
        try await api.recoveryRegistration(
            recoveryAttemptId: input.recoveryAttemptId,
            recoveryToken: input.recoveryToken
        )
    }
}
