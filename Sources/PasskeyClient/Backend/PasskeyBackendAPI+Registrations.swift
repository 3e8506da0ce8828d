/// The life of an explicit-finalize registration attempt, for the integrator's backend.
extension PasskeyBackendAPI {
    /// `POST /v1/registrations/{id}/finalize`: makes the reserved passkey active, with the finalize token the app
    /// received from `enroll` (``RegisteredCredential/finalizeToken``).
    public func finalizeRegistration(
        registrationAttemptId: String,
        finalizeToken: String
    ) async throws(PasskeyError) -> RegistrationStatus {
        try await settle(registrationAttemptId, "finalize", SettleBody(finalizeToken: finalizeToken, reason: nil))
    }

    /// `POST /v1/registrations/{id}/abort`: releases the reserved passkey; `identityProviderRefused` records that
    /// the integrator's own identity provider refused it (`IDP_COMMIT_FAILED`, which the app then hears).
    public func abortRegistration(
        registrationAttemptId: String,
        finalizeToken: String,
        identityProviderRefused: Bool = false
    ) async throws(PasskeyError) -> RegistrationStatus {
        try await settle(
            registrationAttemptId,
            "abort",
            SettleBody(finalizeToken: finalizeToken, reason: identityProviderRefused ? "IDP_COMMIT_FAILED" : nil)
        )
    }

    /// `POST /v1/registrations/{id}/cancel`: ends an attempt before it completed; the app's later calls on it
    /// fail with `REGISTRATION_ATTEMPT_CANCELLED`.
    public func cancelRegistration(registrationAttemptId: String) async throws(PasskeyError) -> RegistrationStatus {
        try await settle(registrationAttemptId, "cancel", SettleBody?.none)
    }

    private struct SettleBody: Encodable, Sendable {
        let finalizeToken: String
        let reason: String?
    }

    private func settle(
        _ id: String,
        _ action: String,
        _ body: (some Encodable & Sendable)?
    ) async throws(PasskeyError) -> RegistrationStatus {
        try await requester.send(
            "POST",
            ["v1", "registrations", id, action],
            token: apiKey,
            body: body,
            as: RegistrationStatus.self
        )
    }
}

/// A registration attempt as the backend API returns it after finalize, abort or cancel.
public struct RegistrationStatus: Sendable, Hashable, Codable {
    public var registrationAttemptId: String
    public var userId: String
    /// `finalized`, `aborted` or `cancelled` here (the server's other statuses are documented in its OpenAPI).
    public var status: String
    /// `IDP_COMMIT_FAILED` when the backend aborted it with that reason.
    public var reason: String?
    /// The passkey registered through the attempt, once there is one.
    public var credential: RegisteredCredential?
}
