import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import WebAuthn

/// `POST /v1/authentications/{id}/handoff`
struct Handoff: Decodable, Sendable {
    let crossPlatformSessionId: String
    let handoffToken: String
    let deepLink: String
    let qrCodeSVG: String
    let verificationCode: String
    let pollToken: String
    let expiresAt: String

    /// A two-digit number other than the right one.
    var wrongCode: String { String(format: "%02d", (Int(verificationCode)! + 1) % 100) }
}

/// `POST /v1/client/cross-platform/resume`
struct ResumedHandoff: Decodable, Sendable {
    let crossPlatformSessionId: String
    let biometricPasskeySessionId: String
    let clientToken: String
    let mode: String
    let expiresAt: String

    /// The session as flow 2's calls take it, with the phone's client token.
    var session: AuthenticationSession {
        AuthenticationSession(
            biometricPasskeySessionId: biometricPasskeySessionId,
            clientToken: clientToken,
            expiresAt: expiresAt
        )
    }
}

extension API {
    func handoff(_ session: AuthenticationSession) async throws -> APIResponse {
        try await backend(.post, "/v1/authentications/\(session.biometricPasskeySessionId)/handoff")
    }

    func resume(_ token: String) async throws -> APIResponse {
        try await send(.post, "/v1/client/cross-platform/resume", body: JSON.encode(["handoffToken": token]))
    }

    func confirm(_ resumed: ResumedHandoff, code: String) async throws -> APIResponse {
        try await client(
            .post,
            "/v1/client/cross-platform/\(resumed.crossPlatformSessionId)/confirm",
            token: resumed.clientToken,
            body: ["verificationCode": code]
        )
    }

    func reject(_ resumed: ResumedHandoff) async throws -> APIResponse {
        try await client(
            .post,
            "/v1/client/cross-platform/\(resumed.crossPlatformSessionId)/reject",
            token: resumed.clientToken
        )
    }

    /// The status the first device reads, or an empty string when it could not be read.
    func handoffStatus(_ handoff: Handoff) async throws -> String {
        try await client(
            .get,
            "/v1/client/cross-platform/\(handoff.crossPlatformSessionId)/status",
            token: handoff.pollToken
        ).json().object?["status"]?.string ?? ""
    }

    /// A user with a passkey on `phone` (enrolled now unless `enrolled`), a sign-in session for them, and its handoff.
    func handedOffSession(
        _ userID: String,
        phone: inout TestAuthenticator,
        request: String? = nil,
        enrolled: Bool = false
    ) async throws -> (AuthenticationSession, Handoff) {
        if !enrolled { try await enroll(userID, authenticator: &phone) }
        let session = try await backend(
            .post,
            "/v1/authentications",
            json: request ?? #"{"userId": "\#(userID)"}"#
        ).expect(.created, AuthenticationSession.self)
        let handoff = try await handoff(session).expect(.created, Handoff.self)
        return (session, handoff)
    }

    /// The phone signs the handoff's session (flow 2's options, an assertion, complete) with its client token.
    func sign(_ resumed: ResumedHandoff, phone: inout TestAuthenticator) async throws -> APIResponse {
        let options = try await client(
            .post,
            Path.authenticationOptions(resumed.biometricPasskeySessionId),
            token: resumed.clientToken
        ).expect(.ok, Options<PublicKeyCredentialRequestOptionsJSON>.self).publicKey
        return try await completeSignIn(resumed.session, assertion(options, authenticator: &phone))
    }

    /// Resumes and confirms the handoff, then signs its session on `phone`: the approval as a phone gives it.
    func approve(_ handoff: Handoff, phone: inout TestAuthenticator) async throws -> (ResumedHandoff, APIResponse) {
        let resumed = try await resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
        _ = try await confirm(resumed, code: handoff.verificationCode).expect(.ok, JSONValue.self)
        return (resumed, try await sign(resumed, phone: &phone))
    }
}
