import Crypto
import Foundation
import HTTPTypes
import PasskeyTesting
import WebAuthn

/// A redemption that asks for a token session.
struct RedeemWithSession: Encodable, Sendable {
    let resultToken: String
    var issueSession = true
}

struct SessionTokens: Decodable, Sendable, Equatable {
    let accessToken: String
    let tokenType: String
    let expiresIn: Int
    let refreshToken: String
    let refreshExpiresIn: Int
}

struct RedeemedWithSession: Decodable, Sendable {
    let userId: String
    let session: SessionTokens?
}

struct RefreshTokenBody: Encodable, Sendable {
    let refreshToken: String
}

struct PublishedKeys: Decodable, Sendable {
    struct Key: Decodable, Sendable {
        let kty: String
        let crv: String
        let x: String
        let y: String
        let kid: String
        let alg: String
        let use: String
    }
    let keys: [Key]
}

/// The claims of an access token, as a verifier reads them.
struct TokenClaims: Decodable, Sendable {
    let iss: String
    let sub: String
    let aud: String
    let client_id: String
    let iat: Int
    let exp: Int
    let jti: String
    let sid: String
    let auth_time: Int
    let amr: [String]
    let acr: String
    let txn: String?
}

struct TokenHeader: Decodable, Sendable {
    let alg: String
    let kid: String
    let typ: String
}

/// An access token checked as a relying party's API would: its ES256 signature against the published key its `kid`
/// names, then its claims decoded.
struct VerifiedToken {
    let header: TokenHeader
    let claims: TokenClaims

    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    init(_ token: String, keys: PublishedKeys) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { throw Refused(description: "not three parts: \(token)") }
        let header = try JSON.decode(TokenHeader.self, from: try Base64URL.decode(parts[0]))
        guard header.alg == "ES256", let key = keys.keys.first(where: { $0.kid == header.kid }) else {
            throw Refused(description: "no published key \(header.kid) for \(header.alg)")
        }
        self.header = header
        let point = [4] + (try Base64URL.decode(key.x)) + (try Base64URL.decode(key.y))
        let publicKey = try P256.Signing.PublicKey(x963Representation: point)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try Base64URL.decode(parts[2]))
        guard publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)) else {
            throw Refused(description: "the signature does not verify with key \(key.kid)")
        }
        claims = try JSON.decode(TokenClaims.self, from: try Base64URL.decode(parts[1]))
    }
}

extension API {
    /// A sign-in of `userID` with `authenticator`, redeemed with a token session.
    func signInWithSession(
        userID: String,
        authenticator: inout TestAuthenticator
    ) async throws -> SessionTokens {
        let session = try await startSignIn(userID: userID)
        let options = try await authenticationOptions(session)
        let completion = try await completeSignIn(session, assertion(options, authenticator: &authenticator))
            .expect(.ok, SignInCompletion.self)
        let redeemed = try await backend(
            .post,
            Path.redeem(session.biometricPasskeySessionId),
            body: RedeemWithSession(resultToken: completion.resultToken)
        )
        .expect(.ok, RedeemedWithSession.self)
        guard let tokens = redeemed.session else {
            throw VerifiedToken.Refused(description: "the redemption carried no session")
        }
        return tokens
    }

    func refreshSession(_ refreshToken: String) async throws -> APIResponse {
        try await send(.post, "/v1/sessions/refresh", body: JSON.encode(RefreshTokenBody(refreshToken: refreshToken)))
    }

    func revokeSession(_ refreshToken: String) async throws -> APIResponse {
        try await send(.post, "/v1/sessions/revoke", body: JSON.encode(RefreshTokenBody(refreshToken: refreshToken)))
    }

    func publishedKeys() async throws -> PublishedKeys {
        try await send(.get, "/.well-known/jwks.json").expect(.ok, PublishedKeys.self)
    }
}
