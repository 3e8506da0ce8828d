import Foundation
import WebAuthn

/// `POST /v1/authentications`
struct CreateAuthenticationRequest: Decodable, Sendable {
    /// Absent: usernameless sign-in with a discoverable credential.
    let userId: String?
    /// `standard` (default) or `stepUp` (user verification mandatory).
    let mode: String?
    /// What the sign-in is for, echoed at redemption (such as `login`, `payment.approve`).
    let action: String?
    let transaction: String?
}

struct CreateAuthenticationResponse: Encodable, Sendable {
    let biometricPasskeySessionId: String
    let clientToken: String
    let expiresAt: Date
}

/// `POST /v1/client/authentications/{id}/complete`
struct CompleteAuthenticationRequest: Decodable, Sendable {
    let credential: AuthenticationResponseJSON
}

struct CompleteAuthenticationResponse: Encodable, Sendable {
    let resultToken: String
    let expiresAt: Date
}

/// `POST /v1/authentications/{id}/redeem`
struct RedeemRequest: Decodable, Sendable {
    let resultToken: String
}

/// What an authentication flow keeps in its payload, and what redemption returns.
struct AuthenticationState: Codable, Sendable {
    var mode: String
    var action: String?
    var result: AuthenticationResult?
}

struct AuthenticationResult: Codable, Sendable, Equatable {
    let userId: String
    let credentialId: String
    let userVerified: Bool
    let backupEligible: Bool
    let backupState: Bool
    let mode: String
    let action: String?
    let completedAt: Date
}
