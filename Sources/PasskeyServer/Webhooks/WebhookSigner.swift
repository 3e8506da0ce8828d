import Crypto
import Foundation

/// Signs webhook messages as the Standard Webhooks specification defines: `webhook-signature` is `v1,` and the
/// base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the bytes of the endpoint's secret
/// (`whsec_` and their base64).
struct WebhookSigner: Sendable {
    static let secretPrefix = "whsec_"
    /// The key lengths the specification recommends, in bytes.
    static let keyLengths = 24...64

    private let key: SymmetricKey

    /// The signer of `secret`; nil when it is not `whsec_` and the base64 of 24 to 64 bytes.
    init?(secret: String) {
        guard secret.hasPrefix(Self.secretPrefix),
            let bytes = Data(base64Encoded: String(secret.dropFirst(Self.secretPrefix.count))),
            Self.keyLengths.contains(bytes.count)
        else { return nil }
        key = SymmetricKey(data: bytes)
    }

    /// The `webhook-signature` header's value for a message.
    func signature(id: String, timestamp: Int, body: String) -> String {
        let content = Array("\(id).\(timestamp).".utf8) + Array(body.utf8)
        return "v1," + Data(HMAC<SHA256>.authenticationCode(for: content, using: key)).base64EncodedString()
    }
}
