public import Foundation

extension PasskeyBackendAPI {
    /// `POST /v1/recoveries`: starts a recovery for `userId`; deliver its token to the person out of band.
    public func createRecovery(userId: String) async throws(PasskeyError) -> RecoveryAttempt {
        struct Body: Encodable, Sendable {
            let userId: String
        }
        return try await requester.send(
            "POST",
            ["v1", "recoveries"],
            token: apiKey,
            body: Body(userId: userId),
            as: RecoveryAttempt.self
        )
    }

    /// `POST /v1/recoveries/{id}/finalize`: the replacement passkey becomes active and the old ones are revoked by
    /// the server's `recovery.revoke`.
    public func finalizeRecovery(recoveryAttemptId: String) async throws(PasskeyError) -> RecoveryFinalization {
        try await requester.send(
            "POST",
            ["v1", "recoveries", recoveryAttemptId, "finalize"],
            token: apiKey,
            body: EmptyBody?.none,
            as: RecoveryFinalization.self
        )
    }
}

/// A started recovery (`POST /v1/recoveries`).
public struct RecoveryAttempt: Sendable, Hashable, Codable {
    public var recoveryAttemptId: String
    /// Single-use; for the person's new device only.
    public var recoveryToken: String
    public var attemptExpiresAt: Date
}

/// A finalized recovery: the replacement passkey, and the ids of the passkeys it revoked.
public struct RecoveryFinalization: Sendable, Hashable, Codable {
    public var recoveryAttemptId: String
    public var credential: RegisteredCredential
    public var revokedCredentialIds: [String]
}
