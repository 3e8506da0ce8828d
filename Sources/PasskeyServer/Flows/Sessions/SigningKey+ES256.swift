import Crypto
import Foundation
import PasskeyStorage
import WebAuthn

/// ES256 (ECDSA with P-256 and SHA-256, RFC 7518 §3.4) over a stored ``SessionSigningKey``, written with swift-crypto
/// directly: the server only ever signs its own tokens (it never verifies a JWT: refresh tokens are opaque), and a
/// JWS signature in ES256 is exactly swift-crypto's raw `r || s`, so a JWT library would add a dependency for a few
/// lines. Verifiers use any JOSE library against `/.well-known/jwks.json` (the tests use PyJWT).
extension SessionSigningKey {
    /// A new P-256 key made at `time`, its id the RFC 7638 thumbprint of its public key.
    static func generate(at time: Date) -> SessionSigningKey {
        let key = P256.Signing.PrivateKey()
        let publicKey = Array(key.publicKey.x963Representation)
        return SessionSigningKey(
            id: PublicJWK(x963: publicKey).thumbprint,
            privateKey: Array(key.rawRepresentation),
            publicKey: publicKey,
            createdAt: time
        )
    }

    /// The compact JWS (RFC 7515 §7.1) of `payload` (JSON bytes), with the header `{"alg":"ES256","kid":…,"typ":…}`.
    /// Throws when the stored private key is not a P-256 key.
    func sign(payload: [UInt8], type: String) throws -> String {
        let header = try JSONSerialization.data(
            withJSONObject: ["alg": "ES256", "kid": id, "typ": type],
            options: [.sortedKeys, .withoutEscapingSlashes]
        )
        let input = Base64URL.encode(Array(header)) + "." + Base64URL.encode(payload)
        let key = try P256.Signing.PrivateKey(rawRepresentation: privateKey)
        let signature = try key.signature(for: Array(input.utf8))
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }

    /// The public key as a JWK (RFC 7517), for the published key set.
    var publicJWK: PublicJWK { PublicJWK(x963: publicKey, keyID: id) }
}

/// A P-256 public key as a JSON Web Key: `{"kty":"EC","crv":"P-256","x":…,"y":…}` with its use, algorithm and id.
struct PublicJWK: Encodable, Sendable, Equatable {
    let kty = "EC"
    let crv = "P-256"
    let x: String
    let y: String
    let use = "sig"
    let alg = "ES256"
    let kid: String

    /// From the uncompressed point `04 || x || y` (65 bytes); a stored key of another shape gives empty coordinates,
    /// which no verifier accepts.
    init(x963 point: [UInt8], keyID: String = "") {
        let coordinates = point.count == 65 && point.first == 4 ? Array(point.dropFirst()) : []
        x = Base64URL.encode(coordinates.prefix(32))
        y = Base64URL.encode(coordinates.dropFirst(32))
        kid = keyID
    }

    /// The RFC 7638 thumbprint: the SHA-256 of the required members in lexicographic order, without white space.
    var thumbprint: String {
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        return Base64URL.encode(Array(SHA256.hash(data: Array(canonical.utf8))))
    }

    enum CodingKeys: String, CodingKey {
        case kty, crv, x, y, use, alg, kid
    }
}

/// `GET /.well-known/jwks.json`: the keys that verify access tokens (RFC 7517 §5).
struct JSONWebKeySet: Encodable, Sendable {
    let keys: [PublicJWK]
}
