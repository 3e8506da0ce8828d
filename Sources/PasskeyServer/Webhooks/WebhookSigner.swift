import Crypto
import Foundation

/// Signs webhook messages as the Standard Webhooks specification defines: `webhook-signature` is `v1,` and the
/// base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the bytes of the endpoint's secret
/// (`whsec_` and their base64). While a secret is being rotated the header carries one such signature per secret,
/// separated by a space, the current secret's first; a receiver accepts the message when any of them verifies.
struct WebhookSigner: Sendable {
    static let secretPrefix = "whsec_"
    /// The key lengths the specification recommends, in bytes.
    static let keyLengths = 24...64

    private let keys: [SymmetricKey]

    /// The signer of `secret`; nil when it is not `whsec_` and the base64 of 24 to 64 bytes.
    init?(secret: String) {
        guard let key = Self.key(secret) else { return nil }
        keys = [key]
    }

    /// The signer of an endpoint: its secret and, while it is being rotated, its previous one. Nil when either is not
    /// a secret.
    init?(_ endpoint: ServerConfiguration.Webhooks.Endpoint) {
        let secrets = [endpoint.secret] + (endpoint.previousSecret.map { [$0] } ?? [])
        let keys = secrets.compactMap(Self.key)
        guard keys.count == secrets.count else { return nil }
        self.keys = keys
    }

    private static func key(_ secret: String) -> SymmetricKey? {
        guard secret.hasPrefix(secretPrefix),
            let bytes = Data(base64Encoded: String(secret.dropFirst(secretPrefix.count))),
            keyLengths.contains(bytes.count)
        else { return nil }
        return SymmetricKey(data: bytes)
    }

    /// The `webhook-signature` header's value for a message.
    func signature(id: String, timestamp: Int, body: String) -> String {
        let content = Array("\(id).\(timestamp).".utf8) + Array(body.utf8)
        return keys.map { key in
            "v1," + Data(HMAC<SHA256>.authenticationCode(for: content, using: key)).base64EncodedString()
        }.joined(separator: " ")
    }
}
