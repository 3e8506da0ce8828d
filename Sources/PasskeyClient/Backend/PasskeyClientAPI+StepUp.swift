public import Foundation
public import WebAuthn

extension PasskeyClientAPI {
    /// `POST /v1/client/authentications/{id}/options`, whole: the request options and, for a step-up session that
    /// binds one, the transaction whose digest ends the challenge.
    /// (``authenticationOptions(sessionId:clientToken:heldCredentialIds:)`` returns the options alone, and says what
    /// `heldCredentialIds` does.)
    public func authenticationRequest(
        sessionId: String,
        clientToken: String,
        heldCredentialIds: [String]? = nil
    ) async throws(PasskeyError) -> AuthenticationRequest {
        struct Body: Encodable, Sendable {
            let credentialIds: [String]
        }
        return try await requester.send(
            "POST",
            ["v1", "client", "authentications", sessionId, "options"],
            token: clientToken,
            body: heldCredentialIds.map(Body.init(credentialIds:)),
            as: AuthenticationRequest.self
        )
    }

    /// `POST /biometric-passkey/mobile/step-up/{id}/idv/start`: starts the identity verification a step-up session
    /// requires; once per session (again: `IDV_ALREADY_STARTED`).
    public func startStepUpIdentityVerification(
        sessionId: String,
        clientToken: String
    ) async throws(PasskeyError) -> IdentityVerificationStart {
        try await requester.send(
            "POST",
            ["biometric-passkey", "mobile", "step-up", sessionId, "idv", "start"],
            token: clientToken,
            body: EmptyBody(),
            as: IdentityVerificationStart.self
        )
    }
}

/// The answer to the authentication options request: the WebAuthn options, and the transaction they bind.
public struct AuthenticationRequest: Sendable, Hashable, Decodable {
    public var publicKey: PublicKeyCredentialRequestOptionsJSON
    /// The step-up session's transaction; check it with ``TransactionDetails/verify(boundInto:)`` before signing.
    public var transaction: TransactionDetails?

    public init(publicKey: PublicKeyCredentialRequestOptionsJSON, transaction: TransactionDetails? = nil) {
        self.publicKey = publicKey
        self.transaction = transaction
    }
}

/// A started identity verification: the run the vendor's capture reports to.
public struct IdentityVerificationStart: Sendable, Hashable, Codable {
    public var workflowRunId: String
    public var idvToken: String
    public var expiresAt: Date
}
