import Foundation

/// The claims of an access token (a JWT, RFC 7519, typed `at+jwt` as RFC 9068 does), in the names the RFCs give them:
/// who signed in (`sub`, the integrator's user id), for whom (`aud`), by whom (`iss`), to which client (`client_id`,
/// which RFC 9068 §2.2 requires: the relying party's apps, named by its RP ID), when the token was issued and
/// expires (`iat`, `exp`, seconds since 1970), when the user signed in (`auth_time`, unchanged by refreshing), how
/// (`amr`, RFC 8176 method names) and with what assurance (`acr`). See docs/server.md, "Token sessions".
struct AccessTokenClaims: Encodable, Sendable, Equatable {
    let iss: String
    let sub: String
    let aud: String
    let clientID: String
    let iat: Int
    let exp: Int
    /// A random id of this token (RFC 7519 §4.1.7).
    let jti: String
    /// The token session (the refresh-token family) the token belongs to: the same through every refresh.
    let sid: String
    let authTime: Int
    let amr: [String]
    let acr: String
    /// A step-up's transaction digest (unpadded base64url of the SHA-256 of the text the user approved); only in the
    /// access token issued at redemption, never in a refreshed one: the approval was for that one action.
    let txn: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, iat, exp, jti, sid, amr, acr, txn
        case authTime = "auth_time"
        case clientID = "client_id"
    }

    /// The RFC 8176 methods a passkey sign-in proves: possession of a key — `hwk` for a device-bound one, `swk` for a
    /// synced (backup-eligible) one, as the authenticator reports it — and the user's presence (`user`, which every
    /// sign-in requires); with user verification the authenticator checked a PIN or biometric besides the key, so it
    /// was multi-factor (`mfa`). Which of PIN or biometric the authenticator used is not reported, so neither `pin`
    /// nor `fpt` is claimed.
    static func methods(backupEligible: Bool, userVerified: Bool) -> [String] {
        [backupEligible ? "swk" : "hwk", "user"] + (userVerified ? ["mfa"] : [])
    }
}
