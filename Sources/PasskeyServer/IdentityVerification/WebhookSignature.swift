import Crypto
import Foundation

/// The signature of a webhook exchange with an identity-verification vendor, in both directions:
/// `X-Passkeys-Timestamp: <seconds since 1970>` and `X-Passkeys-Signature: v1=<hex HMAC-SHA256>` over
/// `<timestamp>.<body>`, keyed with the shared secret. The timestamp must be within five minutes of the receiver's
/// clock, so a captured request cannot be replayed later; event ids stop replays within that window.
struct WebhookSignature: Sendable {
    static let timestampHeader = "X-Passkeys-Timestamp"
    static let signatureHeader = "X-Passkeys-Signature"
    /// How far a timestamp may be from the receiver's clock.
    static let tolerance: TimeInterval = 300

    let secret: String

    func sign(_ body: [UInt8], timestamp: Int) -> String {
        "v1=" + mac(body, timestamp: timestamp).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `signature` signs `body` at `timestamp` (compared in constant time).
    func isValid(_ signature: String, body: [UInt8], timestamp: Int) -> Bool {
        Secrets.constantTimeEqual(Array(signature.utf8), Array(sign(body, timestamp: timestamp).utf8))
    }

    /// The timestamp header's value, when it is a whole number of seconds within ``tolerance`` of `now`.
    static func timestamp(_ header: String?, now: Date) -> Int? {
        guard let header, header.utf8.count <= 12, let seconds = Int(header),
            abs(Double(seconds) - now.timeIntervalSince1970) <= tolerance
        else { return nil }
        return seconds
    }

    private func mac(_ body: [UInt8], timestamp: Int) -> [UInt8] {
        let key = SymmetricKey(data: Array(secret.utf8))
        return Array(HMAC<SHA256>.authenticationCode(for: Array("\(timestamp).".utf8) + body, using: key))
    }
}
